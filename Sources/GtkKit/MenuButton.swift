import CGtk

extension UI {
    /// An icon button with a menu of (label, action) items. The menu's popover is made when the
    /// button is first opened: a GtkPopoverMenu builds a widget for every item as soon as it gets
    /// its model, which cost 2–3 ms per menu before the first frame.
    public static func menuButton(icon: String, label: String, items: [(String, String)]) -> Widget {
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), icon)
        Tooltip.set(button, label)
        Accessibility.setLabel(button, label)
        beforePopup(button) {
            guard gtk_menu_button_get_menu_model(OpaquePointer(button)) == nil else { return }
            let menu = g_menu_new()!
            for (text, action) in items { g_menu_append(menu, text, action) }
            gtk_menu_button_set_menu_model(OpaquePointer(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
            g_object_unref(UnsafeMutableRawPointer(menu))
        }
        return button
    }

    /// Runs `make` each time before the menu button `button` opens (its create-popup function; the
    /// button is clickable without a popover): a menu or popover made there costs nothing until the
    /// button is first used.
    public static func beforePopup(_ button: Widget, _ make: @escaping @MainActor () -> Void) {
        gtk_menu_button_set_create_popup_func(
            OpaquePointer(button),
            { _, user in
                MainActor.assumeIsolated { SignalClosure.body(user, as: (@MainActor () -> Void).self)() }
            }, SignalClosure.retain(make), SignalClosure.release)
    }
}
