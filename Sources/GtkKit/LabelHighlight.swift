import CGtk

/// Marks parts of the text shown by the labels inside a widget (matches of a find), as Pango
/// attributes over the label's own markup: links, bold and code keep their look around the marks.
@MainActor
public enum LabelHighlight {
    /// Marks, in every label inside `root`, the UTF-8 byte ranges `ranges` gives for its text, with
    /// `background` and `foreground` (#RRGGBB); labels with no range lose earlier marks. Returns how
    /// many ranges were marked.
    @discardableResult
    public static func apply(in root: UnsafeMutablePointer<GtkWidget>, background: String, foreground: String, ranges: (String) -> [Range<Int>])
        -> Int
    {
        var marked = 0
        for label in WidgetTree.all(root) where isLabel(label) {
            let opaque = OpaquePointer(label)
            let found = ranges(String(cString: gtk_label_get_text(opaque)))
            marked += found.count
            // Setting attributes lays the text out again: labels without marks before or now are left alone.
            guard !found.isEmpty || gtk_label_get_attributes(opaque) != nil else { continue }
            if found.isEmpty {
                gtk_label_set_attributes(opaque, nil)
                continue
            }
            let attributes = pango_attr_list_new()
            for range in found {
                for attribute in [color(background, pango_attr_background_new), color(foreground, pango_attr_foreground_new)] {
                    guard let attribute else { continue }
                    attribute.pointee.start_index = guint(range.lowerBound)
                    attribute.pointee.end_index = guint(range.upperBound)
                    pango_attr_list_insert(attributes, attribute)  // the list owns it
                }
            }
            gtk_label_set_attributes(opaque, attributes)
            pango_attr_list_unref(attributes)
        }
        return marked
    }

    /// How many marked ranges the labels inside `root` have (checks read it).
    public static func markedRanges(in root: UnsafeMutablePointer<GtkWidget>) -> Int {
        WidgetTree.all(root).filter(isLabel).reduce(0) { count, label in
            guard let attributes = gtk_label_get_attributes(OpaquePointer(label)) else { return count }
            let list = pango_attr_list_get_attributes(attributes)
            defer { g_slist_free_full(list) { pango_attribute_destroy($0?.assumingMemoryBound(to: PangoAttribute.self)) } }
            // Each mark is a background and a foreground.
            return count + Int(g_slist_length(list)) / 2
        }
    }

    private static func isLabel(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0
    }

    private static func color(_ hex: String, _ make: (guint16, guint16, guint16) -> UnsafeMutablePointer<PangoAttribute>?)
        -> UnsafeMutablePointer<PangoAttribute>?
    {
        var parsed = PangoColor()
        guard pango_color_parse(&parsed, hex) != 0 else { return nil }
        return make(parsed.red, parsed.green, parsed.blue)
    }
}
