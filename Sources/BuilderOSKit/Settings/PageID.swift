/// The main window's pages by name: the `page` setting's values (the schema's choices, checked by
/// `SettingsStoreTests`), the window actions that show them (`win.page-<name>`, Ctrl+1…6 in this
/// order), and what the UI checks activate.
public enum PageID: String, CaseIterable, Sendable {
    case chat, dashboard, connection, power, preview, terminal

    /// The window action that shows the page (without the `win.` prefix).
    public var actionName: String { "page-\(rawValue)" }
    /// The same, as activated from outside the window (`win.page-<name>`).
    public var windowAction: String { "win.\(actionName)" }
    /// 1 for the first page, and so on.
    public var number: Int { PageID.allCases.firstIndex(of: self)! + 1 }
    /// Ctrl+1 for the first page, and so on.
    public var accelerator: String { "<Control>\(number)" }
}
