import BuilderOSKit
import CGtk
import GtkKit

/// What the header's server switcher asks of the application, which holds every server's session.
@MainActor
protocol ServerDirectory: AnyObject {
    /// Every server in the list's order, with its dot: a live session's indicator, else nil (not yet known).
    func serverEntries() -> [(profile: ServerProfile, indicator: ConnectionIndicator?)]
    var activeServerID: String? { get }
    func switchServer(to id: String)
    func addServer()
}

/// The header's server switcher (Ctrl+Shift+S): the active server's name and dot; its popover lists every
/// server with its dot, the active one checked, and "Add Server…". Servers without a session of their own
/// get a light status request each when the popover opens (`ServerProbe`), their dots filled in as they answer.
@MainActor
final class ServerSwitcher {
    let widget: Widget
    private weak var directory: (any ServerDirectory)?
    private let dot: Widget
    private let name: Widget
    private var probe: Task<Void, Never>?

    init(directory: any ServerDirectory, connection: ConnectionController) {
        self.directory = directory
        dot = UI.label("●", classes: [Style.dot], wrap: false)
        name = UI.label("", classes: [Style.label], wrap: false)
        widget = gtk_menu_button_new()
        gtk_menu_button_set_child(OpaquePointer(widget), UI.hbox(spacing: Style.gapTiny, [dot, name]))
        gtk_widget_set_name(widget, "server-switcher")
        Tooltip.set(widget, L("Switch server (Ctrl+Shift+S)"))
        show(connection.snapshot)
        connection.changes.add(owner: self) { [weak self] in self?.show($0) }
        UI.beforePopup(widget) { [weak self] in self?.makePopover() }
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [unowned self] in probe?.cancel() }
        Lifetime.tie(self, to: widget)
    }

    func open() { gtk_menu_button_popup(OpaquePointer(widget)) }

    private func show(_ snapshot: ConnectionSnapshot) {
        let active = directory?.serverEntries().first { $0.profile.id == directory?.activeServerID }?.profile
        UI.setText(name, active?.name ?? snapshot.server.displayURL)
        Self.paint(dot, snapshot.indicator)
        Accessibility.setLabel(widget, String(format: L("Server: %@, %@. Switch server"), active?.name ?? "", snapshot.stateText))
    }

    private static func paint(_ dot: Widget, _ indicator: ConnectionIndicator?) {
        for state in [ConnectionIndicator.connected, .connecting, .disconnected, .failed] {
            UI.setClass(dot, state.rawValue, state == (indicator ?? .connecting))
        }
    }

    private func makePopover() {
        guard let directory else { return }
        probe?.cancel()
        let list = UI.vbox(spacing: Style.gapTiny)
        gtk_widget_set_name(list, "server-list")
        var unknown: [(ServerProfile, Widget)] = []
        let popover = gtk_popover_new()!
        Accessibility.setLabel(popover, L("Servers"))
        for (profile, indicator) in directory.serverEntries() {
            let rowDot = UI.label("●", classes: [Style.dot], wrap: false)
            Self.paint(rowDot, indicator)
            if indicator == nil { unknown.append((profile, rowDot)) }
            let active = profile.id == directory.activeServerID
            let check = gtk_image_new_from_icon_name("object-select-symbolic")!
            gtk_widget_set_opacity(check, active ? 1 : 0)
            Accessibility.hide(check)
            let label = UI.label(profile.name, classes: [Style.label], wrap: false)
            gtk_widget_set_hexpand(label, 1)
            let row = gtk_button_new()!
            gtk_button_set_child(gtkCast(row, to: GtkButton.self), UI.hbox(spacing: Style.gapSmall, [rowDot, label, check]))
            UI.addClasses(row, ["flat"])
            gtk_widget_set_name(row, "server-\(profile.id)")
            Accessibility.setLabel(row, active ? String(format: L("%@, the active server"), profile.name) : profile.name)
            Tooltip.set(row, profile.server?.displayURL ?? profile.address)
            let id = profile.id
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
        guard !unknown.isEmpty else { return }
        probe = Task { @MainActor in
            let states = await ServerProbe.check(unknown.map(\.0))
            guard !Task.isCancelled else { return }
            for ((_, rowDot), state) in zip(unknown, states) { Self.paint(rowDot, state.indicator) }
        }
    }
}
