import BuilderOSKit
import CGtk
import GtkKit

/// What the header's server switcher asks of the application, which holds every server's session.
@MainActor
protocol ServerDirectory: AnyObject {
    /// Every server in the list's order, with its state (the tray reads the same).
    func serverEntries() -> [ServerEntry]
    /// Fires when a server's state changed.
    var serverChanges: Observers<Void> { get }
    /// A light status request to each server without a session.
    func checkServers()
    var activeServerID: String? { get }
    func switchServer(to id: String)
    func addServer()
}

/// The header's server switcher (Ctrl+Shift+S): the active server's name (the connection indicator beside it has
/// its dot); its popover lists every
/// server with its dot, the active one checked, and "Add Server…". Opening it asks the servers without a
/// session how they are; their dots follow as they answer (`ServerEntry`, the tray's value too).
@MainActor
final class ServerSwitcher {
    let widget: Widget
    private weak var directory: (any ServerDirectory)?
    private weak var connection: ConnectionController?
    private let name: Widget
    /// The open popover's rows and their dots, by server id: they follow each server's state while it is open.
    private var rows: [String: (row: Widget, dot: Widget)] = [:]

    /// `name`: the server's, as the window read it from the settings (the switcher reads them again only on news).
    init(directory: any ServerDirectory, connection: ConnectionController, name serverName: String) {
        self.directory = directory
        self.connection = connection
        name = UI.label("", classes: [Style.label], wrap: false)
        // A long name ends in "…" where the header is narrow, and never takes more than this.
        gtk_label_set_ellipsize(OpaquePointer(name), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(OpaquePointer(name), Layout.chars("server-name"))
        widget = gtk_menu_button_new()
        gtk_menu_button_set_child(OpaquePointer(widget), name)
        // The arrow says it opens a list, as on every text button with a menu (HIG; "New Chat" has one too).
        gtk_menu_button_set_always_show_arrow(OpaquePointer(widget), 1)
        gtk_widget_set_name(widget, "server-switcher")
        Tooltip.set(widget, L("Switch server (Ctrl+Shift+S)"))
        show(connection.snapshot, name: serverName)
        connection.changes.add(owner: self) { [weak self] in self?.show($0) }
        UI.beforePopup(widget) { [weak self] in self?.makePopover() }
        directory.serverChanges.add(owner: self) { [weak self] in self?.repaintRows() }
        Lifetime.tie(self, to: widget)
    }

    func open() { gtk_menu_button_popup(OpaquePointer(widget)) }

    private func show(_ snapshot: ConnectionSnapshot, name serverName: String? = nil) {
        if let serverName { UI.setText(name, serverName) }
        let shown = gtk_label_get_text(OpaquePointer(name)).map { String(cString: $0) } ?? ""
        Accessibility.setLabel(widget, L("Server: %@, %@. Switch server", shown, snapshot.stateText))
    }

    /// A row's dot, tooltip and spoken name: the server's state.
    private static func describe(_ row: Widget, dot: Widget, _ entry: ServerEntry) {
        paint(dot, entry.indicator)
        let spoken = L("%@ — %@", entry.name, entry.stateText)
        Accessibility.setLabel(row, entry.active ? L("%@, the active server", spoken) : spoken)
        Tooltip.set(row, entry.stateText)
    }

    private static func paint(_ dot: Widget, _ indicator: ConnectionIndicator?) {
        for state in [ConnectionIndicator.connected, .connecting, .disconnected, .failed] {
            UI.setClass(dot, state.rawValue, state == (indicator ?? .connecting))
        }
    }

    private func repaintRows() {
        guard let entries = directory?.serverEntries() else { return }
        if let connection { show(connection.snapshot, name: entries.first { $0.active }?.name) }
        for entry in entries { rows[entry.id].map { Self.describe($0.row, dot: $0.dot, entry) } }
    }

    private func makePopover() {
        guard let directory else { return }
        let list = UI.vbox(spacing: Style.gapTiny)
        gtk_widget_set_name(list, "server-list")
        rows = [:]
        let popover = gtk_popover_new()!
        Accessibility.setLabel(popover, L("Servers"))
        for entry in directory.serverEntries() {
            let rowDot = UI.dot(classes: [Style.dot])
            let check = gtk_image_new_from_icon_name("object-select-symbolic")!
            gtk_widget_set_opacity(check, entry.active ? 1 : 0)
            Accessibility.hide(check)
            let label = UI.label(entry.name, classes: [Style.label], wrap: false)
            gtk_widget_set_hexpand(label, 1)
            let row = gtk_button_new()!
            gtk_button_set_child(gtkCast(row, to: GtkButton.self), UI.hbox(spacing: Style.gapSmall, [rowDot, label, check]))
            UI.addClasses(row, ["flat"])
            gtk_widget_set_name(row, "server-\(entry.id)")
            Self.describe(row, dot: rowDot, entry)
            rows[entry.id] = (row, rowDot)
            let id = entry.id
            Signals.connect(UnsafeMutableRawPointer(row), "clicked") { [weak directory] in
                gtk_popover_popdown(gtkCast(popover, to: GtkPopover.self))
                directory?.switchServer(to: id)
            }
            UI.append(list, row)
        }
        let add = UI.button(L("_Add Server…"), classes: ["flat"]) { [weak directory] in
            gtk_popover_popdown(gtkCast(popover, to: GtkPopover.self))
            directory?.addServer()
        }
        gtk_widget_set_name(add, "add-server")
        UI.append(list, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        UI.append(list, add)
        gtk_popover_set_child(gtkCast(popover, to: GtkPopover.self), list)
        gtk_menu_button_set_popover(OpaquePointer(widget), popover)
        directory.checkServers()
    }
}
