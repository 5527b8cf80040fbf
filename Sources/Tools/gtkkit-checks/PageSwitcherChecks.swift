import CGtk
import Foundation
import GtkKit

/// `PageSwitcher`: a tab per titled page (its icon too, where the page has one), following the stack both ways,
/// its tooltips set, made without a request to the X server where GtkStackSwitcher sends some (its tooltips: the
/// control).
@MainActor
enum PageSwitcherChecks {
    static let followsTheStackWithoutAskingTheServer = Check(
        name: "the page switcher is a tab list that follows its stack, made without asking the X server"
    ) {
        guard let requests = XRequests() else { return Outcome(passed: false, detail: "not on an X11 display") }
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let stack = gtk_stack_new()!
        for (name, title) in [("chat", "Chat"), ("power", "Power"), ("terminal", "Terminal")] {
            let page = gtk_stack_add_titled(OpaquePointer(stack), gtk_label_new(title), name, title)
            if name != "chat" { gtk_stack_page_set_icon_name(page, "\(name)-symbolic") }
        }
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gtkCast(box, to: GtkBox.self), stack)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), box)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 3) { gtk_widget_get_mapped(stack) != 0 }

        let before = requests.sent
        let ours = PageSwitcher.make(for: stack, label: "Pages") { "\($0) tab" }
        gtk_box_prepend(gtkCast(box, to: GtkBox.self), ours)
        let byOurs = requests.sent - before
        let control = gtk_stack_switcher_new()!
        gtk_box_prepend(gtkCast(box, to: GtkBox.self), control)
        let start = requests.sent
        gtk_stack_switcher_set_stack(OpaquePointer(control), OpaquePointer(stack))
        let byGTK = requests.sent - start

        var buttons: [Widget] = []
        var child = gtk_widget_get_first_child(ours)
        while let c = child { buttons.append(c); child = gtk_widget_get_next_sibling(c) }
        // A page with an icon has both forms in its button, the title first.
        let labels = buttons.map { button in
            gtk_button_get_child(gtkCast(button, to: GtkButton.self)).flatMap { child in
                gtk_widget_get_first_child(child) == nil ? child : gtk_widget_get_first_child(child)
            }.flatMap { gtk_label_get_text(OpaquePointer($0)) }.map { String(cString: $0) } ?? ""
        }
        let forms = buttons.map { gtk_widget_get_first_child(gtk_button_get_child(gtkCast($0, to: GtkButton.self))).map { _ in 2 } ?? 1 }
        let tooltips = buttons.map { gtk_widget_get_tooltip_text($0).map { String(cString: $0) } ?? "" }
        let active = { buttons.map { gtk_toggle_button_get_active(gtkCast($0, to: GtkToggleButton.self)) != 0 } }
        let roles =
            gtk_accessible_get_accessible_role(OpaquePointer(ours)) == GTK_ACCESSIBLE_ROLE_TAB_LIST
            && buttons.allSatisfy { gtk_accessible_get_accessible_role(OpaquePointer($0)) == GTK_ACCESSIBLE_ROLE_TAB }
        let first = active()
        // The stack's page changed elsewhere (a shortcut): the switcher follows.
        gtk_stack_set_visible_child_name(OpaquePointer(stack), "terminal")
        let followed = active()
        // A button pressed (a click toggles it on): the stack shows its page.
        Signals.emit(UnsafeMutableRawPointer(buttons[1]), "clicked")
        let shown = gtk_stack_get_visible_child_name(OpaquePointer(stack)).map { String(cString: $0) }
        let afterPress = active()
        let passed =
            byOurs == 0 && byGTK > 0 && labels == ["Chat", "Power", "Terminal"] && forms == [1, 2, 2]
            && tooltips == ["chat tab", "power tab", "terminal tab"] && roles
            && first == [true, false, false] && followed == [false, false, true] && shown == "power" && afterPress == [false, true, false]
        return Outcome(
            passed: passed,
            detail:
                "X requests: PageSwitcher \(byOurs), GtkStackSwitcher \(byGTK); labels \(labels), forms \(forms), tooltips \(tooltips); tab roles \(roles); active \(first) → \(followed) → \(afterPress), shown \(shown ?? "none")"
        )
    }
}
