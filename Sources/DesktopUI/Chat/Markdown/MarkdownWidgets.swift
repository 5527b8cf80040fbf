import BuilderOSKit
import CGtk
import GtkKit

/// One Markdown block as a widget: labels with Pango markup (links open in the browser: GtkLabel's
/// own link handling), code blocks with a Copy button, lists, quotes and tables (`BlockViews`).
@MainActor
enum MarkdownWidgets {
    static func make(_ block: MarkdownBlock) -> Widget {
        switch block {
        case .paragraph(let inlines): return text(PangoMarkup.render(inlines))
        case .heading(let level, let inlines): return text(PangoMarkup.heading(level: level, inlines))
        case .code, .list, .table, .quote: return BlockViews.make(block).widget
        case .rule:
            let rule = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
            return rule
        }
    }

    /// A long wrapping text's narrowest width, in characters. GtkLabel finds a wrapping label's
    /// minimum width by laying its text out at width 0 — a line per word — the largest single cost
    /// of the first frame. A text longer than this is never shown narrower anyway (its natural
    /// width is at least this); a shorter one keeps its own width.
    static let minimumWidthChars = Layout.chars("long-text-min")

    /// A reply's text lines are at most this many characters long (`MarkdownView`'s column).
    static let lineChars = Layout.chars("reply-line")

    /// Sets a wrapping text label's markup, with the minimum width above once the text is long.
    static func setMarkup(_ label: Widget, _ markup: String) {
        gtk_label_set_markup(OpaquePointer(label), markup)
        keepMinimumWidth(label)
    }

    /// Gives a wrapping label whose text is long the minimum width above (once; never taken back).
    static func keepMinimumWidth(_ label: Widget) {
        let opaque = OpaquePointer(label)
        if gtk_label_get_width_chars(opaque) < 0, g_utf8_strlen(gtk_label_get_text(opaque), -1) > Int(minimumWidthChars) {
            gtk_label_set_width_chars(opaque, minimumWidthChars)
        }
    }

    static func text(_ markup: String, wrap: Bool = true) -> Widget {
        // Wrapped text measures with one Pango layout at the reply's line length (`TextLabel`), where
        // a GtkLabel lays it out three or four times: new rows and a streaming paragraph cost a third.
        let label = wrap ? TextLabel.make(maxChars: lineChars) : UI.label("", classes: [], wrap: false, selectable: true)
        if wrap { setMarkup(label, markup) } else { gtk_label_set_markup(OpaquePointer(label), markup) }
        // Selectable labels take focus on click; links still open with Enter or a click.
        gtk_widget_set_focus_on_click(label, 0)
        return label
    }

    /// A list item: the marker, then the item's blocks in `content` (no width sharing around them).
    static func listItem(marker: String, content: Widget) -> Widget {
        let markerLabel = UI.label(marker, wrap: false)
        UI.align(markerLabel, v: GTK_ALIGN_START)
        return LeadingLayout.box(spacing: Style.gapSmall, leading: markerLabel, content: content)
    }
}
