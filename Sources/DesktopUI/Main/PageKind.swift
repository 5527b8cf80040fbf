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
