import CGtk
import GtkKit

/// The layout the non-chat pages share: a scrollable centred column with a title.
@MainActor
enum PageLayout {
    /// Returns (scrolled root, column to append cards to).
    static func column(title: String, width: Int32 = Layout.px("page-column"), trailing: Widget? = nil) -> (root: Widget, column: Widget) {
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

    /// A page's centred state (empty, unavailable, an explanation): a large faded icon, a heading,
    /// a sentence and maybe a button — the design's empty state.
    static func emptyState(icon name: String, title: String, text: Widget, button: Widget? = nil) -> Widget {
        let icon = gtk_image_new_from_icon_name(name)!
        gtk_image_set_pixel_size(OpaquePointer(icon), Layout.px("empty-icon"))
        UI.addClasses(icon, [Style.emptyIcon])
        gtk_label_set_justify(OpaquePointer(text), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(OpaquePointer(text), Layout.chars("empty-state"))
        let column = UI.vbox(spacing: Style.gap, [icon, UI.label(title, classes: [Style.title], xalign: 0.5), text])
        if let button { UI.align(button, h: GTK_ALIGN_CENTER); UI.append(column, button) }
        UI.align(column, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_CENTER)
        UI.margins(column, top: Style.gapLarge, bottom: Style.gapLarge, start: Style.section, end: Style.section)
        return column
    }

    static func iconButton(_ icon: String, label: String, action: @escaping @MainActor () -> Void) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        Tooltip.set(button, label)
        Accessibility.setLabel(button, label)
        Signals.connect(UnsafeMutableRawPointer(button), "clicked", action)
        return button
    }
}
