import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The tray indicator's side of the application: what its menu and clicks do, and when the app may run without a
/// window (only while a tray host can bring it back).
extension DesktopApplication {
    /// "Keep running in the background" and `--hidden` need a tray host to show the way back.
    public var backgroundModeAvailable: Bool { tray?.hostAvailable == true }

    func startTray() {
        let connection = g_application_get_dbus_connection(gApplication)
        tray = TrayIndicator(
            connection: connection, status: TrayStatus(snapshot: session?.connection.snapshot),
            windowShown: { [unowned self] in mainWindowShown }, servers: { [unowned self] in serverEntries() },
            perform: { [unowned self] in perform($0) }, activate: { [unowned self] in toggleMainWindow(activationToken: $0) })
        if let tray { serverStates.changes.add(owner: tray) { [weak tray] in tray?.serversChanged() } }
        tray?.onHostChange = { [unowned self] available in
            // The host went away while the window was hidden: show it, or the app would be unreachable.
            if !available, mainWindowInstance != nil, !mainWindowShown { activate() }
        }
    }

    func feedTray(from session: AppSession) {
        let feed = NSObject()
        trayFeedToken = feed
        tray?.update(status: TrayStatus(snapshot: session.connection.snapshot))
        session.connection.changes.add(owner: feed) { [weak self] snapshot in self?.tray?.update(status: TrayStatus(snapshot: snapshot)) }
    }

    /// After a `--hidden` start: stay in the tray if a host shows it (waiting up to 2 s for the answer), else open the window.
    func stayInTrayOrPresent() async {
        for _ in 0..<TrayHostWait.polls where tray?.hostAvailable == nil { try? await Task.sleep(for: TrayHostWait.pause) }
        if backgroundModeAvailable { hideMainWindow() } else { mainWindowInstance?.present() }
    }

    /// A click on the tray icon: hide the window when it is in front, else bring it (or setup) up.
    func toggleMainWindow(activationToken: String?) {
        if let main = mainWindowInstance, mainWindowShown, gtk_window_is_active(gtkCast(main.window, to: GtkWindow.self)) != 0 {
            hideMainWindow()
            return
        }
        if let token = activationToken, let window = currentWindow ?? mainWindowInstance?.window {
            // Wayland's xdg-activation: the host's token lets the compositor raise the window.
            gtk_window_set_startup_id(gtkCast(window, to: GtkWindow.self), token)
        }
        if let main = mainWindowInstance, !mainWindowShown { main.present() }
        activate()
    }

    func perform(_ action: TrayMenu.Action) {
        switch action {
        case .open: toggleMainWindow(activationToken: nil)
        case .connect: session?.connection.connect()
        case .disconnect: session?.connection.disconnect()
        case .newChat:
            bringMainWindowUp()
            mainWindowInstance?.newChat()
        case .newTerminal:
            bringMainWindowUp()
            mainWindowInstance?.newTerminal()
        case .sleepServer:
            bringMainWindowUp()
            mainWindowInstance?.askSleep()
        case .switchServer(let id):
            bringMainWindowUp()
            switchServer(to: id)
        case .addServer:
            bringMainWindowUp()
            addServer()
        case .preferences: showPreferences()
        case .quit: g_application_quit(gApplication)
        }
    }

    private func bringMainWindowUp() {
        if let main = mainWindowInstance, !mainWindowShown { main.present() }
        activate()
    }
}
