import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The application: one instance per session (a second launch presents the open window), its
/// actions and accelerators, the appearance, and which window to show — the setup wizard when no
/// server or key is configured, else the main window.
@MainActor
public final class DesktopApplication {
    public static let id = BuilderOSKit.applicationID

    public let application: UnsafeMutablePointer<GtkApplication>
    public let account: Account
    public private(set) var appearance: AppearanceController?
    private let prefilledServer: String
    private(set) var mainWindow: MainWindow?
    /// The active server's session, which every window shows; replaced on sign-in and on a switch.
    private(set) var session: AppSession?
    private var heldInBackground = false
    private(set) var notifier: SessionNotifier?
    /// The sessions of servers switched away from, by server id: still connected, so a reply streaming from
    /// one keeps streaming into its history and notifies, and its outbox drains whenever it is reachable.
    var background: [String: ParkedSession] = [:]
    /// The servers without a session: their states for the switcher and the tray.
    let serverStates = ServerStates()
    var monitors: SystemMonitors?
    private(set) var wizard: SetupWizard?
    /// The tray icon (nil when the session bus has no room for it); fed from the session's connection.
    var tray: TrayIndicator?
    /// Ties the tray's subscription to one session: replaced when the session is.
    var trayFeedToken: NSObject?
    /// `--hidden`: the first start opens no window when a tray host can bring it back.
    private var startHidden: Bool

    /// - Parameters:
    ///   - prefilledServer: an address for the wizard's server field (the demo launcher passes
    ///     the bundled server's URL; never a key).
    ///   - unique: false for tests, which run beside a real instance.
    ///   - startHidden: start in the tray (`--hidden`); ignored when no tray host is there or setup is needed.
    public init(account: Account = Account(), prefilledServer: String = "", unique: Bool = true, startHidden: Bool = false) {
        self.account = account
        self.prefilledServer = prefilledServer
        self.startHidden = startHidden
        application = gtk_application_new(Self.id, unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE)!
        let pointer = UnsafeMutableRawPointer(application)
        Signals.connect(pointer, "startup") { [unowned self] in startup() }
        Signals.connect(pointer, "activate") { [unowned self] in activate() }
    }

    /// What has to happen before GLib or GTK first read the environment, and what starts beside
    /// GTK's own start (the first frame's fonts): call it first in `main`.
    public nonisolated static func prepareProcess() {
        // Before anything looks a resource up (the theme's stand-in must be found before GTK's own).
        GtkTheme.installStandIn()
        // The environment is changed first: the thread below may read it (getenv races setenv).
        AppIcon.addFolderToDataDirectories()
        StartFontsCache.preload()
        // The first window's stylesheet and layout need the design tokens (JSON, ~1.5 ms to decode):
        // decoded beside GTK's start, so the main thread finds them ready (`shipped` is made once, by
        // whichever thread comes first). At normal priority: the main thread may wait for it.
        Thread.detachNewThread { _ = DesignTokens.shipped }
    }

    /// Runs the GLib main loop until the last window closes; returns the exit status.
    public func run() -> Int32 {
        // GTK's GL driver loads beside the start, but only now: loading it holds the dynamic
        // loader's lock (~30 ms), which the main thread needs too to load a library or start a
        // thread, and the settings made in `init` load GIO's dconf module: started in `main`, the
        // main thread would wait there for the driver. The history's thread is made before it.
        let settings = account.settingsStore.load()
        if let active = settings.activeServer, active.server != nil { HistoryOpening.start(path: Self.historyPath(of: active)) }
        GLDriverPreload.start()
        // Meanwhile the main thread would wait for that lock (GDBus starts a thread in GApplication's start).
        AppearanceController.prepareStyles(for: settings.appearance)
        MainLoopBridge.install()
        let name = strdup(CommandLine.arguments.first ?? "builderos-desktop")
        defer { free(name) }
        var argv: [UnsafeMutablePointer<CChar>?] = [name, nil]
        let status = g_application_run(gapp, 1, &argv)
        // A start that never showed a window (`--hidden`, then Quit) must not exit inside GL's set-up.
        GLPrepare.finish()
        return status
    }

    private var gapp: UnsafeMutablePointer<GApplication> { UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self) }

    /// The window in front: wizard, main window, or nothing yet.
    public var currentWindow: Widget? {
        let active = gtk_application_get_active_window(application)
        return active.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
    }

    /// The active server's connection as every indicator shows it; nil before sign-in.
    public var connection: ConnectionSnapshot? { session?.connection.snapshot }

    // MARK: Start

    private func startup() {
        Accessibility.nameGtkParts(scrollBar: L("Scroll bar"), divider: L("Divider"), close: L("Close"))
        AppIcon.install(on: application)
        appearance = AppearanceController(preference: account.settingsStore.load().appearance)
        // Before any widget lays text out (GTK's widgets then use the fonts loaded while GTK started),
        // and after GTK's theme is loaded (rule 44), which lays none out: the loading has that long more.
        FontPreload.finish()
        // GL is set up beside the making of the first window (Wayland), once the fonts' thread no longer needs the other core.
        GLPrepare.start()
        // Changed outside the app too (`gsettings set app.builderos.Desktop appearance dark`): applied at once.
        account.settingsStore.onChange(of: .appearance) { [unowned self] in
            let wanted = account.settingsStore.load().appearance
            if appearance?.preference != wanted { appearance?.set(wanted) }
        }
        // Preferences (or `gsettings set`) change the interval: the session's schedule follows at once.
        account.settingsStore.onChange(of: .autoRefreshSeconds) { [unowned self] in
            session?.connection.refreshSchedule.chosenSeconds = account.settingsStore.load().autoRefreshSeconds
        }
        Actions.add("quit", to: application, accelerators: ["<Control>q"]) { [unowned self] in
            g_application_quit(gapp)
        }
        Actions.add("preferences", to: application, accelerators: ["<Control>comma"]) { [unowned self] in showPreferences() }
        Actions.add("shortcuts", to: application, accelerators: ["F1", "<Control>question"]) { [unowned self] in
            ShortcutsWindow.present(parent: currentWindow)
        }
        Actions.add("change-server", to: application) { [unowned self] in changeServer() }
        Actions.add("add-server", to: application) { [unowned self] in addServer() }
        Actions.add("replace-key", to: application) { [unowned self] in replaceKey() }
        Actions.add("rename-server", to: application) { [unowned self] in renameServer() }
        Actions.add("sign-out", to: application) { [unowned self] in confirmSignOut() }
        Actions.add("about", to: application) { [unowned self] in AboutDialog.present(parent: currentWindow) }
        // A notification's click (`NotificationClick`): the main window back, on the notification's server (and conversation).
        Actions.add("show-server", to: application) { [unowned self] id in showFromNotification(server: id) }
        Actions.add("show-conversation", to: application) { [unowned self] target in
            guard let (server, conversation) = NotificationClick.conversationTarget(target) else { return activate() }
            showFromNotification(server: server, conversation: conversation)
        }
        // The tray registers with its host over D-Bus and is not part of any window: it starts once
        // the first window has painted. A `--hidden` start paints none and needs the tray to stay hidden.
        if startHidden {
            startTray()
        } else {
            FirstPaint.afterFirstWindow(of: application) { [unowned self] in if tray == nil { startTray() } }
        }
    }

    func activate() {
        if let window = currentWindow ?? mainWindow?.window {
            showMainWindowAgain()
            gtk_window_present(gtkCast(window, to: GtkWindow.self))
            return
        }
        let settings = account.settingsStore.load()
        guard let server = settings.server else {
            openWizard(prefill: settings.activeServer?.address ?? prefilledServer, startAt: .welcome)
            return
        }
        // The window first, the keyring once it has painted (`SessionKey.start`, in `openMainWindow`):
        // the first frame waits for no D-Bus round trip and shares no core with the key exchange.
        // The session's requests and sockets wait for the key; no key after all means setup again.
        let key = SessionKey(server: server, credentials: account.credentials, waitingForStart: true)
        let hidden = startHidden
        startHidden = false
        openMainWindow(server: server, key: key, present: !hidden)
        if hidden { Task { await stayInTrayOrPresent() } }
        Task { await confirmKey(key, of: server) }
    }

    /// The keyring's answer for the session just opened: nothing to do when it has the key;
    /// otherwise the main window gives way to setup (no key) or to the problem (no keyring).
    func confirmKey(_ key: SessionKey, of server: ServerAddress) async {
        do throws(BuilderOSError) {
            _ = try await key.value()
        } catch {
            guard session?.key === key else { return }
            // With other servers set up, only this one signs in again, over the window; the others stay a click away.
            if case .notSignedIn = error, mainWindow != nil, account.settingsStore.load().servers.count > 1 {
                return openWizard(prefill: server.baseURL, startAt: .apiKey, overWindow: true)
            }
            endSession { [unowned self] in
                if case .notSignedIn = error {
                    openWizard(prefill: server.baseURL, startAt: .welcome)
                } else {
                    ProblemWindow(application: application, error: error) { [unowned self] in activate() }.present()
                }
            }
        }
    }

    /// Closes the main window and ends the session, then opens `next` (setup, a problem), keeping
    /// the app alive in between: for a moment it has no window.
    private func endSession(thenOpen next: () -> Void) {
        g_application_hold(gapp)
        defer { g_application_release(gapp) }
        mainWindow.map { gtk_window_destroy(gtkCast($0.window, to: GtkWindow.self)) }
        endSession()
        next()
    }

    // MARK: Windows

    /// `replacing`: the server whose address the user is changing (Change Address…).
    /// `adding`: another server, beside those set up (Add Server…). With `overWindow` (implied by `adding`) the setup
    /// opens over the main window, which then switches to the server set up.
    public func openWizard(
        prefill: String, startAt: SetupStep, replacing: String? = nil, adding: Bool = false, overWindow: Bool = false
    ) {
        let overWindow = (adding || overWindow) && mainWindow != nil
        let wizard = SetupWizard(
            application: application, account: account, prefilledServer: prefill, startAt: startAt, replacing: replacing,
            adding: adding
        ) {
            [unowned self] server, key in
            if overWindow, mainWindow != nil { return show(server, key: SessionKey(key)) }
            mainWindow.map { gtk_window_destroy(gtkCast($0.window, to: GtkWindow.self)) }
            openMainWindow(server: server, key: SessionKey(key))
        }
        if overWindow, let parent = mainWindow?.window {
            gtk_window_set_transient_for(gtkCast(wizard.window, to: GtkWindow.self), gtkCast(parent, to: GtkWindow.self))
            gtk_window_set_modal(gtkCast(wizard.window, to: GtkWindow.self), 1)
        }
        self.wizard = wizard
        Signals.connect(UnsafeMutableRawPointer(wizard.window), "destroy") { [unowned self] in self.wizard = nil }
        wizard.present()
    }

    /// The file holding a server's conversations (nil: a profile not saved yet, whose history is the first file).
    static func historyPath(of profile: ServerProfile?) -> String {
        HistoryStore.path(forFile: profile?.historyFile ?? HistoryStore.firstFileName)
    }

    func openMainWindow(server: ServerAddress, key: SessionKey, present: Bool = true) {
        let session: AppSession
        var connectSession = false
        if let existing = self.session, existing.server == server {
            session = existing
        } else {
            endSession()
            let history: HistoryStore
            let settings = account.settingsStore.load()
            let profile = settings.server(at: server)
            let path = Self.historyPath(of: profile)
            do throws(BuilderOSError) {
                if let opened = HistoryOpening.take(path: path) { history = try opened.get() } else { history = try HistoryStore(opening: path) }
                try history.interruptStreamingReplies()
            } catch {
                ProblemWindow(application: application, error: error) { [unowned self] in openMainWindow(server: server, key: key) }.present()
                return
            }
            // The window's building reaches its first reply after the header and the sidebar.
            if history.holdsRecentReplies() { MarkdownParser.loadInBackground() }
            var configuration = ChatConfiguration()
            configuration.network = profile?.network ?? ClientConfiguration()
            session = AppSession(
                server: server, key: key, deviceID: settings.deviceID, history: history, chatConfiguration: configuration)
            monitors?.stop()
            monitors = nil
            session.connection.refreshSchedule.chosenSeconds = settings.autoRefreshSeconds
            session.connection.refreshSchedule.start()
            connectSession = true
            self.session = session
            feedTray(from: session)
            notifier = SessionNotifier(application: application, session: session, settingsStore: account.settingsStore) {
                [unowned self, weak session] in
                // A background server's reply notifies even while the window is focused: it shows another server.
                guard let mainWindow, mainWindow.context.session === session else { return false }
                return gtk_window_is_active(gtkCast(mainWindow.window, to: GtkWindow.self)) != 0
            }
        }
        // Another server's content replaces this one's in the same window (a switch), or a window opens.
        let previous = mainWindow
        previous?.retire()
        let window = MainWindow(
            context: PageContext(
                application: application, session: session, settingsStore: account.settingsStore, appearance: appearance, servers: self),
            reusing: previous?.window)
        mainWindow = window
        if previous == nil { watch(window.window) }
        // A switch follows the servers at once; a start does once its window has painted (`start`).
        if previous != nil { followServers() }
        if present { window.present() }
        guard connectSession else { return }
        // The sockets and the first requests wait for the first frame, which needs none of them.
        if present {
            FirstPaint.after(window.window) { [weak self, weak session, weak window] in
                if let session { self?.start(session) }
                if let window { StartFontsCache.keep(fontsOf: window.window) }
            }
        } else {
            start(session)
        }
    }

    /// The application's side of the main window: forgotten when it is destroyed, the tray told when it hides or
    /// shows, and closing it may keep the app in the tray. The window outlives a server switch.
    private func watch(_ widget: Widget) {
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [unowned self] in
            if mainWindow?.window == widget { mainWindow = nil; tray?.windowVisibilityChanged() }
        }
        Signals.connect(
            UnsafeMutableRawPointer(widget), "notify::visible",
            withArgument: { [unowned self] _ in
                guard mainWindow?.window == widget else { return }
                tray?.windowVisibilityChanged()
            })
        Signals.connectHandled(UnsafeMutableRawPointer(widget), "close-request") { [unowned self] in
            // Without a tray host nothing could bring the window back: closing quits as usual.
            guard account.settingsStore.load().keepRunningInBackground, backgroundModeAvailable else { return false }
            hideMainWindow()
            return true
        }
    }

    /// What a new session needs only once its window is on screen: the key from the keyring, the
    /// desktop's network and power monitors (GIO modules, D-Bus proxies), then the connection.
    func start(_ session: AppSession) {
        guard self.session === session else { return }
        session.key.start()
        followServers()
        if monitors == nil { monitors = SystemMonitors(connection: session.connection) }
        session.connection.connect()
    }

    /// Hides the main window, keeping the app (and its connection) running; the tray or a new launch shows it.
    func hideMainWindow() {
        guard let mainWindow else { return }
        if !heldInBackground { g_application_hold(gapp); heldInBackground = true }
        gtk_widget_set_visible(mainWindow.window, 0)
    }

    /// Whatever shows the window again ends the hold that kept the app alive without it.
    private func showMainWindowAgain() {
        guard heldInBackground else { return }
        heldInBackground = false
        g_application_release(gapp)
    }

    var mainWindowShown: Bool { mainWindow.map { gtk_widget_get_visible($0.window) != 0 } ?? false }
    var mainWindowInstance: MainWindow? { mainWindow }
    var gApplication: UnsafeMutablePointer<GApplication> { gapp }

    func endSession() {
        if let session { PageWindow.close(showing: session) }
        session?.connection.refreshSchedule.stop()
        session?.connection.disconnect()
        detachSession()
    }

    /// The window, tray and monitors let go of the active session; whether it goes on is the caller's choice.
    func detachSession() {
        session = nil
        trayFeedToken = nil
        tray?.update(status: TrayStatus(snapshot: nil))
        notifier = nil
        monitors?.stop()
        monitors = nil
    }

    /// A session from the background becomes the active one again, with its notifier and monitors; the tray follows it.
    func adopt(_ parked: ParkedSession) {
        session = parked.session
        notifier = parked.notifier
        monitors = parked.monitors
        feedTray(from: parked.session)
    }

    func showPreferences() {
        guard let appearance else { return }
        PreferencesWindow(
            parent: currentWindow, appearance: appearance, server: mainWindow?.server, backgroundModeAvailable: backgroundModeAvailable,
            settingsStore: account.settingsStore,
            onAppearance: { [unowned self] choice in
                appearance.set(choice)
                var settings = account.settingsStore.load()
                settings.appearance = choice
                try? account.settingsStore.save(settings)
            }, onChangeServer: { [unowned self] in changeServer() }, onSignOut: { [unowned self] in confirmSignOut() }
        ).present()
    }

    private func changeServer() {
        guard let mainWindow else { return }
        if let wizard { wizard.present(); return }
        openWizard(
            prefill: mainWindow.server.baseURL, startAt: .server, replacing: account.settingsStore.load().server(at: mainWindow.server)?.id)
    }

    /// Replace Key…: a key that passes the test replaces the old one, and the session starts again with it.
    private func replaceKey() {
        guard let mainWindow, let profile = account.settingsStore.load().server(at: mainWindow.server) else { return }
        let server = mainWindow.server
        ReplaceKeyDialog.present(parent: mainWindow.window, server: server, name: profile.name, account: account) { [unowned self] key in
            endSession()
            show(server, key: SessionKey(key))
        }
    }

    /// Rename…: the name the switcher, the tray and `--server` use.
    private func renameServer() {
        guard let mainWindow, let profile = account.settingsStore.load().server(at: mainWindow.server) else { return }
        TextPromptDialog.ask(
            parent: mainWindow.window, title: L("Rename “%@”", profile.name), initial: profile.name, confirm: L("_Rename"),
            name: "rename-server"
        ) { [unowned self] name in
            do throws(BuilderOSError) {
                try account.rename(id: profile.id, to: name)
                serverStates.changes.notify(())
            } catch {
                NoticeDialog.show(parent: mainWindow.window, title: L("Could not rename the server"), failure: error, name: "rename-failed")
            }
        }
    }

    /// Forget Server… (and the main menu's Sign Out…): the server the window shows. It names what goes; the
    /// history goes only when ticked.
    private func confirmSignOut() {
        guard let mainWindow, let profile = account.settingsStore.load().server(at: mainWindow.server) else { return }
        let count = mainWindow.context.session.chat.conversations.count
        ConfirmDialog.ask(
            parent: mainWindow.window, title: L("Forget “%@”?", profile.name),
            body: String(
                format: L(
                    "Its API key is removed from your keyring, and its settings (Wake-on-LAN, preview host, terminal commands) from this computer. Its conversations stay on this computer unless you tick the box; signing in to it again brings them back."
                )),
            option: String(
                format: L("Also _delete its chat history (%d conversation)", "Also _delete its chat history (%d conversations)", count: count),
                count),
            cancel: L("_Cancel"), confirm: L("_Forget"), destructive: true, name: "sign-out-confirm"
        ) { [unowned self] deleteHistory in
            Task { await signOut(id: profile.id, deleteHistory: deleteHistory) }
        }
    }

    private func signOut(id: String, deleteHistory: Bool) async {
        // A history about to be deleted is closed first: the session's connection to the file ends with it.
        if deleteHistory, let session, account.settingsStore.load().server(at: session.server)?.id == id { endSession() }
        do {
            try await account.forget(id: id, deleteHistory: deleteHistory)
        } catch {
            guard let parent = mainWindow?.window ?? currentWindow else { return }
            ConfirmDialog.ask(
                parent: parent, title: L("Could not forget the server"),
                body: error.sentenceWithFix,
                cancel: L("_Close"), confirm: L("_Retry"), name: "sign-out-failed"
            ) { [unowned self] in
                Task { await signOut(id: id, deleteHistory: deleteHistory) }
            }
            return
        }
        background.removeValue(forKey: id)?.end()
        serverStates.forget(id)
        // The next server in the list, if any; setup when that was the last.
        if let next = account.settingsStore.load().server {
            endSession()
            show(next)
        } else {
            endSession { [unowned self] in openWizard(prefill: "", startAt: .welcome) }
        }
    }
}
