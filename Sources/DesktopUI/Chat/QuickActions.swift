import BuilderOSKit
import CGtk
import GtkKit

/// The ⚡ button and its popover: the design's six quick actions and a custom command field.
@MainActor
final class QuickActions {
    struct Action {
        let icon: String
        let title: String
        /// The text sent, or nil for Settings (opens Preferences).
        let command: String?
    }

    static var defaults: [Action] {
        // The design's emoji (📊 🏗️ 🚀 🔍 🧠 ⚙️) as the desktop's symbolic icons, which every
        // GNOME icon theme has and which follow the text colour in light and dark.
        [
            Action(icon: "computer-symbolic", title: L("System Status"), command: L("Show system status")),
            Action(icon: "view-grid-symbolic", title: L("List Capsules"), command: L("List all capsules")),
            Action(icon: "send-to-symbolic", title: L("Deploy"), command: L("Deploy latest changes")),
            Action(icon: "system-search-symbolic", title: L("Search Logs"), command: L("Search logs")),
            Action(icon: "drive-multidisk-symbolic", title: L("Memory Query"), command: L("Query builder memory")),
            Action(icon: "emblem-system-symbolic", title: L("Settings"), command: nil),
        ]
    }

    let button: Widget
    /// The popover and its custom-command field, made when the button is first opened: 32 widgets
    /// the first frame does not show.
    private var sheet: (popover: Widget, custom: Widget)?
    var onCommand: ((String) -> Void)?
    var onSettings: (() -> Void)?

    /// Without the app id's dots: GTK 4.8 takes a symbolic PNG's icon name up to the first dot of its file name.
    static let iconName = "builderos-quick-actions-symbolic"

    init() {
        button = gtk_menu_button_new()
        // The design's ⚡ as an icon of the app's own (a symbolic PNG, in the accent's colour), alone, as the design's
        // round button: a label would bring the menu arrow with it. As text, ⚡ is an emoji: with an emoji font
        // installed, as on most desktops, it came out a yellow picture from that font (10 MB, loaded in the first
        // frame), and as a text glyph it is thin and half the design's size.
        gtk_menu_button_set_child(OpaquePointer(button), gtk_image_new_from_icon_name(Self.iconName))
        gtk_menu_button_set_has_frame(OpaquePointer(button), 0)
        gtk_widget_set_name(button, "quick-actions")
        Tooltip.set(button, L("Quick actions (Ctrl+K)"))
        Accessibility.setLabel(button, L("Open quick actions"))
        UI.beforePopup(button) { [weak self] in
            guard let self, sheet == nil else { return }
            sheet = makePopover()
        }
        Lifetime.tie(self, to: button)
    }

    private func makePopover() -> (popover: Widget, custom: Widget) {
        let popover = gtk_popover_new()!
        gtk_widget_set_name(popover, "quick-actions-sheet")
        Accessibility.setLabel(popover, L("Quick actions sheet"))
        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(gtkCast(grid, to: GtkGrid.self), UInt32(Style.gapMedium))
        gtk_grid_set_column_spacing(gtkCast(grid, to: GtkGrid.self), UInt32(Style.gapMedium))
        gtk_grid_set_column_homogeneous(gtkCast(grid, to: GtkGrid.self), 1)
        let custom = UI.entry(placeholder: L("Or type a custom command…"), classes: [Style.entry])
        gtk_widget_set_name(custom, "custom-command")
        Accessibility.setLabel(custom, L("Custom command input"))
        let content = UI.vbox(spacing: Style.gap, [UI.label(L("Quick Actions"), classes: [Style.title]), grid, custom])
        UI.margins(content, top: Style.gapSmall, bottom: Style.gapSmall, start: Style.gapSmall, end: Style.gapSmall)
        UI.size(content, width: Layout.px("quick-actions-width"))
        gtk_popover_set_child(gtkCast(popover, to: GtkPopover.self), content)
        gtk_menu_button_set_popover(OpaquePointer(button), popover)

        for (index, action) in Self.defaults.enumerated() {
            let icon = gtk_image_new_from_icon_name(action.icon)!
            gtk_image_set_pixel_size(OpaquePointer(icon), Layout.px("quick-action-icon"))
            let tile = UI.vbox(
                spacing: Style.gapTiny,
                [
                    icon,
                    UI.label(action.title, classes: [Style.label], wrap: false, xalign: 0.5),
                ])
            let b = gtk_button_new()!
            gtk_button_set_child(gtkCast(b, to: GtkButton.self), tile)
            UI.addClasses(b, [Style.quickAction, "bos-button-quick"])
            gtk_widget_set_name(b, "quick-action-\(index)")
            Accessibility.setLabel(b, L("%@ button", action.title))
            Signals.connect(UnsafeMutableRawPointer(b), "clicked") { [unowned self] in run(action) }
            gtk_grid_attach(gtkCast(grid, to: GtkGrid.self), b, Int32(index % 2), Int32(index / 2), 1, 1)
        }
        Signals.connect(UnsafeMutableRawPointer(custom), "activate") { [unowned self] in
            let text = UI.text(of: custom).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            UI.setText(ofEditable: custom, "")
            close()
            onCommand?(text)
        }
        return (popover, custom)
    }

    func open() {
        gtk_menu_button_popup(OpaquePointer(button))
    }

    private func close() { sheet.map { gtk_popover_popdown(gtkCast($0.popover, to: GtkPopover.self)) } }

    private func run(_ action: Action) {
        close()
        if let command = action.command { onCommand?(command) } else { onSettings?() }
    }
}
