import CGtk

extension UI {
    /// An icon button with a menu of (label, action) items. The menu's popover is made when the
    /// button is first opened: a GtkPopoverMenu builds a widget for every item as soon as it gets
    /// its model, which cost 2–3 ms per menu before the first frame.
    public static func menuButton(icon: String, label: String, items: [(String, String)]) -> Widget {
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), icon)
        gtk_widget_set_tooltip_text(button, label)
        Accessibility.setLabel(button, label)
        let makeMenu: @MainActor (OpaquePointer) -> Void = { button in
            guard gtk_menu_button_get_menu_model(button) == nil else { return }
            let menu = g_menu_new()!
            for (text, action) in items { g_menu_append(menu, text, action) }
            gtk_menu_button_set_menu_model(button, UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
            g_object_unref(UnsafeMutableRawPointer(menu))
        }
        gtk_menu_button_set_create_popup_func(OpaquePointer(button), { button, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: (@MainActor (OpaquePointer) -> Void).self)(button!) }
        }, SignalClosure.retain(makeMenu), SignalClosure.release)
        return button
    }
}
