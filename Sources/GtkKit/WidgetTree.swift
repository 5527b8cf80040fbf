import CGtk

/// Walks a widget tree: for tests and tools that look at what a window really shows.
@MainActor
public enum WidgetTree {
    /// Every descendant of `root` (depth first, `root` included).
    public static func all(_ root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var result = [root]
        var child = gtk_widget_get_first_child(root)
        while let current = child {
            result += all(current)
            child = gtk_widget_get_next_sibling(current)
        }
        return result
    }

    /// The descendant with this widget name (`gtk_widget_set_name`), if any.
    public static func named(_ name: String, in root: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        all(root).first { String(cString: gtk_widget_get_name($0)) == name }
    }

    /// The texts of every label currently on screen (mapped), in reading order.
    public static func visibleTexts(in root: UnsafeMutablePointer<GtkWidget>) -> [String] {
        let labelType = gtk_label_get_type()
        return all(root).compactMap { widget -> String? in
            guard gtk_widget_get_mapped(widget) != 0, g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), labelType) != 0
            else { return nil }
            return String(cString: gtk_label_get_text(OpaquePointer(widget)))
        }
    }
}
