import BuilderOSKit
import CGtk
import GtkKit

/// What every page needs: the session it shows, the settings, and the app-wide commands
/// (pages ask the application to change server or sign out; they never do it themselves).
@MainActor
final class PageContext {
    let application: UnsafeMutablePointer<GtkApplication>
    let session: AppSession
    let settingsStore: SettingsStore
    /// The light or dark theme in force (the terminal follows it with its own colours).
    let appearance: AppearanceController?
    /// Every server and a way to switch (the application's); nil where no switching is offered.
    private(set) weak var servers: (any ServerDirectory)?

    init(
        application: UnsafeMutablePointer<GtkApplication>, session: AppSession, settingsStore: SettingsStore,
        appearance: AppearanceController? = nil, servers: (any ServerDirectory)? = nil
    ) {
        (self.application, self.session, self.settingsStore, self.appearance) = (application, session, settingsStore, appearance)
        self.servers = servers
    }

    var settings: AppSettings { settingsStore.load() }

    /// The shown server's own settings (Wake-on-LAN, preview host, terminal commands).
    var serverSettings: ServerProfile? { settings.server(at: session.server) }

    func update(_ change: (inout AppSettings) -> Void) {
        var s = settingsStore.load()
        change(&s)
        try? settingsStore.save(s)
    }

    /// Activates an application action (`app.change-server`, `app.sign-out`, `app.preferences`).
    /// The application's action group knows its actions without the `app.` prefix that menus and
    /// accelerators use.
    func activate(_ action: String) {
        let name = action.hasPrefix("app.") ? String(action.dropFirst(4)) : action
        g_action_group_activate_action(OpaquePointer(application), name, nil)
    }

    func makePage(_ kind: PageKind, window: @escaping @MainActor () -> Widget?) -> Page {
        switch kind {
        case .chat: return ChatPage(context: self, window: window)
        case .dashboard: return DashboardPage(context: self, window: window)
        case .connection: return ConnectionPage(context: self, window: window)
        case .power: return PowerPage(context: self, window: window)
        case .preview: return PreviewPage(context: self, window: window)
        case .terminal: return TerminalPage(context: self, window: window)
        }
    }
}
