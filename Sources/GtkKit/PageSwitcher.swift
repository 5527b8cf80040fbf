import CGtk

/// A stack's page switcher: linked toggle buttons, one per titled page, that show the stack's
/// visible page and switch to theirs. To assistive technologies a tab list of tabs, the shown
/// page's tab selected, as GtkStackSwitcher is.
///
/// Why not GtkStackSwitcher: GTK 4.8's sets each button's tooltip as it makes the button, and on
/// X11 setting a tooltip on a widget of a shown window asks the X server where the pointer is: a
/// synchronous round trip per button before the first frame. (Under Wayland there is no such query.)
@MainActor
public enum PageSwitcher {
    /// The switcher for the pages `stack` holds now (titled with `gtk_stack_add_titled`). A page with
    /// an icon name shows its icon instead of its title when the switcher is given less than its natural
    /// width (`WideOrNarrow`); `tooltip` gives each page's tooltip, by the page's name.
    public static func make(
        for stack: Widget, label: String, classes: [String] = [], tooltip: (String) -> String? = { _ in nil }
    ) -> Widget {
        let box = Accessibility.make(gtk_box_get_type(), role: GTK_ACCESSIBLE_ROLE_TAB_LIST)
        Accessibility.setLabel(box, label)
        UI.addClasses(box, ["linked"] + classes)
        let typedStack = OpaquePointer(stack)
        var buttons: [(name: String, button: Widget)] = []
        var child = gtk_widget_get_first_child(stack)
        while let page = child.flatMap({ gtk_stack_get_page(typedStack, $0) }) {
            child = gtk_widget_get_next_sibling(child)
            guard let name = gtk_stack_page_get_name(page), let title = gtk_stack_page_get_title(page) else { continue }
            let button = Accessibility.make(gtk_toggle_button_get_type(), role: GTK_ACCESSIBLE_ROLE_TAB)
            let toggle = gtkCast(button, to: GtkToggleButton.self)
            let label = gtk_label_new(title)!
            gtk_label_set_use_underline(OpaquePointer(label), gtk_stack_page_get_use_underline(page))
            if let icon = gtk_stack_page_get_icon_name(page) {
                let image = gtk_image_new_from_icon_name(icon)!
                gtk_button_set_child(gtkCast(button, to: GtkButton.self), WideOrNarrow.box(wide: label, narrow: image))
            } else {
                gtk_button_set_child(gtkCast(button, to: GtkButton.self), label)
            }
            Accessibility.nameFromLabel(button, String(cString: title))
            if let text = tooltip(String(cString: name)) { Tooltip.set(button, text) }
            if let first = buttons.first { gtk_toggle_button_set_group(toggle, gtkCast(first.button, to: GtkToggleButton.self)) }
            gtk_box_append(gtkCast(box, to: GtkBox.self), button)
            let pageName = String(cString: name)
            buttons.append((pageName, button))
            Signals.connect(UnsafeMutableRawPointer(button), "toggled") {
                guard gtk_toggle_button_get_active(toggle) != 0 else { return }
                gtk_stack_set_visible_child_name(typedStack, pageName)
            }
        }
        let follow = {
            let shown = gtk_stack_get_visible_child_name(typedStack).map { String(cString: $0) }
            for (name, button) in buttons {
                let selected = name == shown
                let toggle = gtkCast(button, to: GtkToggleButton.self)
                if (gtk_toggle_button_get_active(toggle) != 0) != selected { gtk_toggle_button_set_active(toggle, selected ? 1 : 0) }
                Accessibility.setSelected(button, selected)
            }
        }
        follow()
        Signals.connect(UnsafeMutableRawPointer(stack), "notify::visible-child-name", withArgument: { _ in follow() })
        return box
    }
}
