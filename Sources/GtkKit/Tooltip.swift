import CGtk

/// Tooltips set without asking the display where the pointer is when no tooltip can be showing.
///
/// Why: GTK 4.8's `gtk_widget_set_tooltip_text` re-runs the tooltip query for every visible widget
/// (so that a tooltip on screen follows its new text), and on X11 that query is three synchronous
/// round trips — the client pointer, the surface under the pointer, a sync — each waiting until
/// the X server has finished the frames before it. A code block made while a reply streams (its
/// Copy button) and the header's connection words, set again at every change of the connection's
/// state, paid them inside frames (perf with scheduler events, the 100 KB stream: ~0.3 ms a round
/// trip, several milliseconds in a loaded frame).
///
/// So: the same text again changes nothing, and a widget not in a window (nothing of it is on
/// screen) takes its text while hidden, which GTK's query skips.
@MainActor
public enum Tooltip {
    public static func set(_ widget: Widget, _ text: String?) {
        let wanted = text.flatMap { $0.isEmpty ? nil : $0 }
        let current = gtk_widget_get_tooltip_text(widget).map { String(cString: $0) }
        guard current != wanted else { return }
        guard gtk_widget_get_root(widget) == nil, gtk_widget_get_visible(widget) != 0 else {
            gtk_widget_set_tooltip_text(widget, wanted)
            return
        }
        gtk_widget_set_visible(widget, 0)
        gtk_widget_set_tooltip_text(widget, wanted)
        gtk_widget_set_visible(widget, 1)
    }
}
