import BuilderOSKit
import GtkKit

/// The main window's pages, in navigation order (Ctrl+1…6).
typealias PageKind = PageID

extension PageID {
    var title: String {
        switch self {
        case .chat: return L("Chat")
        case .dashboard: return L("Dashboard")
        case .connection: return L("Connection")
        case .power: return L("Power")
        case .preview: return L("Preview")
        case .terminal: return L("Terminal")
        }
    }
}

extension PageID {
    /// The icon the header's page switcher shows where the window is too narrow for the names
    /// (GNOME's own icons, near the design's symbols).
    var iconName: String {
        switch self {
        case .chat: return "user-available-symbolic"
        case .dashboard: return "view-grid-symbolic"
        case .connection: return "network-wired-symbolic"
        case .power: return "system-shutdown-symbolic"
        case .preview: return "web-browser-symbolic"
        case .terminal: return "utilities-terminal-symbolic"
        }
    }
}

/// What a page shows inside a window: its root widget and optional page-wide commands.
@MainActor
protocol Page: AnyObject {
    var widget: Widget { get }
    /// F5 on pages that can refresh.
    func refresh()
    /// Called when the page becomes visible.
    func shown()
}

extension Page {
    func refresh() {}
    func shown() {}
}
