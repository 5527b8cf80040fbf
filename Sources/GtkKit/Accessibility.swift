import CGtk

/// Accessible names and descriptions for screen readers. `gtk_accessible_update_property` is
/// variadic; its `_value` form takes GValues and imports.
@MainActor
public enum Accessibility {
    public static func setLabel(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        set(widget, GTK_ACCESSIBLE_PROPERTY_LABEL, text)
    }

    public static func setDescription(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        set(widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text)
    }

    private static func set(_ widget: UnsafeMutablePointer<GtkWidget>, _ property: GtkAccessibleProperty, _ text: String) {
        var properties = [property]
        var values = [GValue()]
        g_value_init(&values[0], GType(16 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_STRING
        g_value_set_string(&values[0], text)
        gtk_accessible_update_property_value(OpaquePointer(widget), 1, &properties, &values)
        g_value_unset(&values[0])
    }
}
