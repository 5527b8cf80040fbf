import CGtk

/// Walks a widget tree: for tests and tools that look at what a window really shows.
@MainActor
public enum WidgetTree {
    /// Every descendant of `root` (depth first, `root` included).
    public static func all(_ root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        [root] + children(root).flatMap(all)
    }

    /// The widget's children, first to last.
    public static func children(_ widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var result: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            result.append(current)
            child = gtk_widget_get_next_sibling(current)
        }
        return result
    }

    /// The descendant with this widget name (`gtk_widget_set_name`), if any.
    public static func named(_ name: String, in root: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        all(root).first { String(cString: gtk_widget_get_name($0)) == name }
    }

    /// Tags `widget` with what it shows now (e.g. "message-assistant-complete"), for checks and
    /// for the widget's own bookkeeping. Unlike the widget's name, which is its CSS ID, changing
    /// it restyles nothing: renaming a message row at the end of a 100 KB reply recomputed the
    /// style of every block in it, a 20 ms frame.
    public static func setStateName(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        g_object_set_data_full(UnsafeMutablePointer(OpaquePointer(widget)), stateNameKey, strdup(name)) { free($0) }
    }

    /// The tag set by `setStateName`, if any.
    public static func stateName(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        g_object_get_data(UnsafeMutablePointer(OpaquePointer(widget)), stateNameKey).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
    }

    /// The texts of every label currently on screen (mapped), in reading order.
    public static func visibleTexts(in root: UnsafeMutablePointer<GtkWidget>) -> [String] {
        let labelType = gtk_label_get_type()
        return all(root).compactMap { widget -> String? in
            guard gtk_widget_get_mapped(widget) != 0,
                g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), labelType) != 0
            else { return nil }
            return String(cString: gtk_label_get_text(OpaquePointer(widget)))
        }
    }
}

private let stateNameKey = "bos-state-name"
