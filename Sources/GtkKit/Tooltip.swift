import CGtk

/// Tooltips set without asking the display where the pointer is when no tooltip can be showing.
///
/// Why: GTK 4.8's `gtk_widget_set_tooltip_text` re-runs the tooltip query for every visible widget
/// (so that a tooltip on screen follows its new text), and on X11 that query is three synchronous
/// round trips — the client pointer, the surface under the pointer, a sync — each waiting until
/// the X server has finished the frames before it. A code block made while a reply streams (its
/// Copy button) and the header's connection words, set again at every change of the connection's
/// state, paid them inside frames. (Under Wayland the query is local and this is merely harmless.)
///
/// So: the same text again changes nothing, and a widget that is not mapped (no tooltip of it can be
/// on screen: made before its window is shown, on a hidden page) takes its text while hidden, which
/// GTK's query skips — unless hiding it would move its window's focus or default.
@MainActor
public enum Tooltip {
    public static func set(_ widget: Widget, _ text: String?) {
        let wanted = text.flatMap { $0.isEmpty ? nil : $0 }
        let current = gtk_widget_get_tooltip_text(widget).map { String(cString: $0) }
        guard current != wanted else { return }
        guard gtk_widget_get_mapped(widget) == 0, gtk_widget_get_visible(widget) != 0, !holdsFocusOrDefault(widget) else {
            gtk_widget_set_tooltip_text(widget, wanted)
            return
        }
        gtk_widget_set_visible(widget, 0)
        gtk_widget_set_tooltip_text(widget, wanted)
        gtk_widget_set_visible(widget, 1)
    }

    /// Whether hiding `widget` would take its window's focus or default widget away (GTK unsets them,
    /// the default for good, when either is the widget or inside it).
    private static func holdsFocusOrDefault(_ widget: Widget) -> Bool {
        guard let root = gtk_widget_get_root(widget) else { return false }
        func inside(_ other: Widget?) -> Bool { other.map { $0 == widget || gtk_widget_is_ancestor($0, widget) != 0 } ?? false }
        if inside(gtk_root_get_focus(root)) { return true }
        let window = UnsafeMutablePointer<GtkWidget>(root)
        guard g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(root), gtk_window_get_type()) != 0 else { return false }
        return inside(gtk_window_get_default_widget(gtkCast(window, to: GtkWindow.self)))
    }
}
