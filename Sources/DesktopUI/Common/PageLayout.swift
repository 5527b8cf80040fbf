import CGtk
import GtkKit

/// The layout the non-chat pages share: a scrollable centred column with a title.
@MainActor
enum PageLayout {
    /// Returns (scrolled root, column to append cards to).
    static func column(title: String, width: Int32 = 640, trailing: Widget? = nil) -> (root: Widget, column: Widget) {
        let heading = UI.hbox(spacing: Style.gap, [UI.label(title, classes: [Style.title]), UI.spacer(vertical: false)])
        if let trailing { UI.append(heading, trailing) }
        let column = UI.vbox(spacing: Style.gapLarge, [heading])
        UI.size(column, width: width)
        UI.align(column, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_START)
        UI.margins(column, top: Style.gapLarge, bottom: Style.section, start: Style.gapLarge, end: Style.gapLarge)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), column)
        gtk_widget_set_vexpand(scroller, 1)
        return (scroller, column)
    }

    /// A card: a headline and its content.
    static func card(_ title: String, _ children: [Widget]) -> Widget {
        UI.vbox(spacing: Style.gap, classes: [Style.card], [UI.label(title, classes: [Style.headline])] + children)
    }

    static func iconButton(_ icon: String, label: String, action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(button, label)
        Accessibility.setLabel(button, label)
        Signals.connect(UnsafeMutableRawPointer(button), "clicked", action)
        return button
    }
}
