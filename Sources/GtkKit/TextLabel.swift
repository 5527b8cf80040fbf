import CGtk
import CTextLabel

/// Wrapped text that is made often or changes often (a reply's Markdown): a GtkLabel that lays its
/// text out once per change where GtkLabel lays it out three or four times (see
/// `CTextLabel/bos_text_label.h`). Selection, links, the context menu and accessibility are
/// GtkLabel's own.
@MainActor
public enum TextLabel {
    /// A wrapping (word, else character), selectable, start-aligned label whose natural width is at
    /// most `maxChars` characters of its font. Its minimum width is its `width-chars` (set it for a
    /// long text: laid out at width 0, a text is a word per line).
    public static func make(maxChars: Int32) -> Widget {
        let label = bos_text_label_new()!
        let opaque = OpaquePointer(label)
        gtk_label_set_wrap(opaque, 1)
        gtk_label_set_wrap_mode(opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_max_width_chars(opaque, maxChars)
        gtk_label_set_xalign(opaque, 0)
        gtk_label_set_selectable(opaque, 1)
        return label
    }

    /// Shows the label's "marker<TAB>text" paragraphs as a list: each paragraph's text and its
    /// wrapped lines start at one column, `widestMarker`'s width in the label's font plus `gap`.
    public static func setListColumn(_ label: Widget, widestMarker: String, gap: Int32) {
        bos_text_label_set_list_column(label, widestMarker, gap)
    }

    /// How many times the label's text was laid out: after a change of its text, attributes or
    /// width, and for every copy measured at another width (checks compare it with the changes).
    public static func layouts(_ label: Widget) -> Int { Int(bos_text_label_layouts(label)) }

    /// The width of `count` characters of `widget`'s font, in pixels, as GtkLabel reckons it for
    /// `max-width-chars` (the wider of an average character and an average digit).
    public static func charactersWidth(_ widget: Widget, _ count: Int32) -> Int32 { Int32(bos_char_width(widget, count)) }
}
