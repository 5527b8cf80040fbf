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

    /// How many times measuring or drawing this label gave its text a width it was not laid out
    /// at — each a full Pango layout (checks compare it with the number of changes).
    public static func layouts(_ label: Widget) -> Int { Int(bos_text_label_layouts(label)) }

    /// Whether `widget` is such a label.
    public static func isTextLabel(_ widget: Widget) -> Bool {
        g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(widget)), bos_text_label_get_type()) != 0
    }
}
