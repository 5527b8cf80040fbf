import CGtk

/// Accessible names and descriptions for screen readers. `gtk_accessible_update_property` is
/// variadic; its `_value` form takes GValues and imports.
@MainActor
public enum Accessibility {
    /// The widget's whole accessible name. GTK 4.8 reads a name as the label property followed by
    /// the text of every widget it is labelled by, so the relation goes: the name is `text` alone.
    public static func setLabel(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        set(widget, GTK_ACCESSIBLE_PROPERTY_LABEL, text)
        gtk_accessible_reset_relation(OpaquePointer(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
    }

    public static func setDescription(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        set(widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text)
    }

    /// Names a button by its label's text alone. GTK 4.8's GtkButton gives its accessible label
    /// property the raw label, underscore and all, and AT-SPI joins that with the text of the label
    /// it is labelled by: a screen reader said "_Go Go". Call after every change of the label.
    public static func nameFromLabel(_ button: UnsafeMutablePointer<GtkWidget>) {
        gtk_accessible_reset_property(OpaquePointer(button), GTK_ACCESSIBLE_PROPERTY_LABEL)
    }

    /// A widget of `type` with an accessible `role`: a property GTK takes only at construction
    /// (`g_object_new` is variadic; its `_with_properties` form imports).
    public static func make(_ type: GType, role: GtkAccessibleRole) -> UnsafeMutablePointer<GtkWidget> {
        var value = GValue()
        g_value_init(&value, gtk_accessible_role_get_type())
        g_value_set_enum(&value, Int32(role.rawValue))
        defer { g_value_unset(&value) }
        let object = "accessible-role".withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return g_object_new_with_properties(type, 1, &names, &value)!
        }
        return UnsafeMutablePointer<GtkWidget>(OpaquePointer(object))
    }

    /// Whether a tab (an option, a row) is the selected one.
    public static func setSelected(_ widget: UnsafeMutablePointer<GtkWidget>, _ selected: Bool) {
        var states = [GTK_ACCESSIBLE_STATE_SELECTED]
        var values = [GValue()]
        // "Selected" may also be undefined, so GTK reads it from a GValue as an int (-1 undefined),
        // not a boolean: a boolean GValue logged a critical and was read as not selected.
        g_value_init(&values[0], GType(6 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_INT
        g_value_set_int(&values[0], selected ? 1 : 0)
        gtk_accessible_update_state_value(OpaquePointer(widget), 1, &states, &values)
        g_value_unset(&values[0])
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
