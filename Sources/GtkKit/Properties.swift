import CGtk

/// GObject properties by name. `g_object_set`/`g_object_get` are variadic and do not import;
/// these go through a `GValue` instead.
@MainActor
public enum Properties {
    public static func setBool(_ object: UnsafeMutableRawPointer, _ name: String, _ value: Bool) {
        var gvalue = GValue()
        g_value_init(&gvalue, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_BOOLEAN
        g_value_set_boolean(&gvalue, value ? 1 : 0)
        g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &gvalue)
        g_value_unset(&gvalue)
    }

    public static func setString(_ object: UnsafeMutableRawPointer, _ name: String, _ value: String) {
        var v = GValue()
        g_value_init(&v, GType(16 << 2))  // G_TYPE_STRING (a macro)
        g_value_set_string(&v, value)
        g_object_set_property(object.assumingMemoryBound(to: GObject.self), name, &v)
        g_value_unset(&v)
    }

    public static func bool(_ object: UnsafeMutableRawPointer, _ name: String) -> Bool {
        var gvalue = GValue()
        g_value_init(&gvalue, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT))
        g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &gvalue)
        defer { g_value_unset(&gvalue) }
        return g_value_get_boolean(&gvalue) != 0
    }

    public static func string(_ object: UnsafeMutableRawPointer, _ name: String) -> String? {
        var gvalue = GValue()
        g_value_init(&gvalue, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_STRING
        g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &gvalue)
        defer { g_value_unset(&gvalue) }
        return g_value_get_string(&gvalue).map { String(cString: $0) }
    }
}
