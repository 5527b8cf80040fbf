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
        // GTK 4.8 has no getter: kept for the wrappers GTK puts around a named widget (`PartNames`).
        g_object_set_data_full(UnsafeMutablePointer<GObject>(OpaquePointer(widget)), labelKey, strdup(text), free)
    }

    /// The name `setLabel` gave `widget`, if any.
    public static func label(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        g_object_get_data(UnsafeMutablePointer<GObject>(OpaquePointer(widget)), labelKey).map {
            String(cString: $0.assumingMemoryBound(to: CChar.self))
        }
    }

    private static let labelKey = "bos-accessible-label"

    public static func setDescription(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        set(widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text)
    }

    /// Names a button by its label's text: `label` without its mnemonic underscores. GTK 4.8's
    /// GtkButton gives its accessible label the raw label and AT-SPI adds the text of the label it
    /// is labelled by, so a screen reader said "_Go Go". Call after every change of the label.
    public static func nameFromLabel(_ button: UnsafeMutablePointer<GtkWidget>, _ label: String) {
        setLabel(button, withoutMnemonic(label))
    }

    /// "Sign _Out" as a person reads it: "Sign Out" ("__" stands for one underscore).
    public static func withoutMnemonic(_ label: String) -> String {
        var out = "", pending = false
        for character in label {
            if character == "_" && !pending { pending = true; continue }
            pending = false
            out.append(character)
        }
        return out
    }

    /// Names a stack's page (GTK 4.8 names an untitled one by its type, "GtkStackPage").
    public static func setPageLabel(_ stack: UnsafeMutablePointer<GtkWidget>, child: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        guard let page = gtk_stack_get_page(OpaquePointer(stack), child) else { return }
        setProperty(UnsafeMutableRawPointer(page), GTK_ACCESSIBLE_PROPERTY_LABEL, text)
    }

    /// Names the parts GTK makes inside its own widgets, which GTK 4.8 otherwise names by their
    /// type ("GtkScrollbar"): scroll bars, a pane's divider and a search bar's close button get the
    /// names given here (the app's translations); a wrapper GTK puts around a widget (a popover's
    /// content, a flow box's cell) takes that widget's name; icons are left out, since each stands
    /// beside its text or in a named button. Once per process, before the first window.
    public static func nameGtkParts(scrollBar: String, divider: String, close: String) {
        PartNames.scrollBar = scrollBar
        PartNames.divider = divider
        PartNames.close = close
        g_type_class_ref(gtk_widget_get_type())  // the signal exists once the class does; kept for good
        let map = g_signal_lookup("map", gtk_widget_get_type())
        g_signal_add_emission_hook(
            map, 0,
            { _, _, values, _ in
                guard let values, let object = g_value_get_object(values) else { return 1 }
                let widget = object.assumingMemoryBound(to: GtkWidget.self)
                let type = UnsafeMutablePointer<GTypeInstance>(OpaquePointer(object)).pointee.g_class.pointee.g_type
                MainActor.assumeIsolated { PartNames.mapped(widget, type: type) }
                return 1
            }, nil, nil)
    }

    /// Hidden from assistive technologies (decoration, or a label with nothing to say yet).
    public static func hide(_ widget: UnsafeMutablePointer<GtkWidget>, _ hidden: Bool = true) {
        var states = [GTK_ACCESSIBLE_STATE_HIDDEN]
        var values = [GValue()]
        g_value_init(&values[0], GType(5 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_BOOLEAN
        g_value_set_boolean(&values[0], hidden ? 1 : 0)
        gtk_accessible_update_state_value(OpaquePointer(widget), 1, &states, &values)
        g_value_unset(&values[0])
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
        setProperty(UnsafeMutableRawPointer(widget), property, text)
    }

    private static func setProperty(_ accessible: UnsafeMutableRawPointer, _ property: GtkAccessibleProperty, _ text: String) {
        var properties = [property]
        var values = [GValue()]
        g_value_init(&values[0], GType(16 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_STRING
        g_value_set_string(&values[0], text)
        gtk_accessible_update_property_value(OpaquePointer(accessible), 1, &properties, &values)
        g_value_unset(&values[0])
    }
}

/// The names `Accessibility.nameGtkParts` gives.
@MainActor
private enum PartNames {
    static var scrollBar = ""
    static var divider = ""
    static var close = ""

    /// The types named here, by GType once seen: every widget that maps comes through, so this
    /// stays a lookup, and each widget is named once.
    private static var kinds: [GType: String] = [:]
    private static var others: Set<GType> = []
    private static let handled: Set<String> = [
        "GtkStack", "GtkScrolledWindow", "GtkScrollbar", "GtkPanedHandle", "GtkBuiltinIcon", "GtkImage",
        "GtkPopoverContent", "GtkFlowBoxChild", "GtkSearchBar",
    ]
    private static let namedQuark = g_quark_from_string("bos-parts-named")

    static func mapped(_ widget: UnsafeMutablePointer<GtkWidget>, type: GType) {
        guard !others.contains(type) else { return }
        guard let kind = kinds[type] ?? register(type) else { return }
        let object = UnsafeMutablePointer<GObject>(OpaquePointer(widget))
        // A stack's hidden pages may have changed since; every other part is named once.
        if kind != "GtkStack" {
            guard g_object_get_qdata(object, namedQuark) == nil else { return }
            g_object_set_qdata(object, namedQuark, UnsafeMutableRawPointer(bitPattern: 1))
        }
        name(widget, type: kind)
    }

    private static func register(_ type: GType) -> String? {
        let name = String(cString: g_type_name(type))
        guard handled.contains(name) else {
            others.insert(type)
            return nil
        }
        kinds[type] = name
        return name
    }

    static func name(_ widget: UnsafeMutablePointer<GtkWidget>, type: String) {
        switch type {
        case "GtkStack":
            // A page not shown is never mapped, but is still read: its parts are named now.
            var child = gtk_widget_get_first_child(widget)
            while let page = child {
                if gtk_widget_get_mapped(page) == 0 { nameTree(page) }
                child = gtk_widget_get_next_sibling(page)
            }
        case "GtkScrolledWindow":
            // Its scroll bars too: one that is not needed yet is never mapped, but is still read.
            let scrolled = OpaquePointer(widget)
            for bar in [gtk_scrolled_window_get_vscrollbar(scrolled), gtk_scrolled_window_get_hscrollbar(scrolled)].compactMap({ $0 }) {
                name(bar, type: "GtkScrollbar")
            }
        case "GtkScrollbar":
            Accessibility.setLabel(widget, scrollBar)
            if let slider = gtk_widget_get_first_child(widget) { Accessibility.setLabel(slider, scrollBar) }
        case "GtkPanedHandle": Accessibility.setLabel(widget, divider)
        case "GtkBuiltinIcon", "GtkImage": Accessibility.hide(widget)
        case "GtkPopoverContent":
            if let popover = gtk_widget_get_parent(widget), let text = Accessibility.label(of: popover) { Accessibility.setLabel(widget, text) }
        case "GtkFlowBoxChild":
            if let cell = gtk_widget_get_first_child(widget), let text = Accessibility.label(of: cell) ?? firstText(in: cell) {
                Accessibility.setLabel(widget, text)
            }
        case "GtkSearchBar":
            // Its close button is GTK's own, an icon without a name.
            var child = gtk_widget_get_first_child(widget)
            while let next = child {
                if let button = firstWidget(of: gtk_button_get_type(), in: next), Accessibility.label(of: button) == nil {
                    Accessibility.setLabel(button, close)
                }
                child = gtk_widget_get_next_sibling(next)
            }
        default: break
        }
    }

    /// The text of the first label inside `widget` (a card's title).
    private static func firstText(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard let label = firstWidget(of: gtk_label_get_type(), in: widget) else { return nil }
        return gtk_label_get_text(OpaquePointer(label)).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func firstWidget(of type: GType, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        if g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(widget)), type) != 0 { return widget }
        var child = gtk_widget_get_first_child(widget)
        while let next = child {
            if let found = firstWidget(of: type, in: next) { return found }
            child = gtk_widget_get_next_sibling(next)
        }
        return nil
    }

    private static func nameTree(_ widget: UnsafeMutablePointer<GtkWidget>) {
        name(widget, type: String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(widget)))))
        var child = gtk_widget_get_first_child(widget)
        while let next = child {
            nameTree(next)
            child = gtk_widget_get_next_sibling(next)
        }
    }
}
