import CGtk
import Foundation
import GtkKit

/// What keeps work out of a window's first frame: work deferred until it has painted, and a menu
/// whose popover is made when it is first opened.
@MainActor
enum StartUpChecks {
    static let firstPaintRunsOnceAfterPainting = Check(name: "work after the first paint runs once, once the window has painted") {
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), gtk_label_new("BuilderOS"))
        var runs = 0, paintsBefore = -1, paints = 0
        FirstPaint.after(window) { runs += 1; paintsBefore = paints }
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        let waitedForAFrame = runs == 0
        // Our own count of painted frames, connected once the window has a frame clock.
        _ = Loop.spin(seconds: 3) { gtk_widget_get_frame_clock(window) != nil }
        if let clock = gtk_widget_get_frame_clock(window) {
            Signals.connect(UnsafeMutableRawPointer(clock), "after-paint") { paints += 1 }
        }
        _ = Loop.spin(seconds: 5) { runs > 0 }
        // More frames: the work is not done again.
        for _ in 0..<3 {
            let target = paints + 1
            gtk_widget_queue_draw(window)
            _ = Loop.spin(seconds: 2) { paints >= target }
        }
        return Outcome(passed: waitedForAFrame && runs == 1 && paints >= 3,
                       detail: "ran \(runs) time(s), \(paints) paints counted, \(paintsBefore) counted before it ran")
    }

    static let menuIsMadeWhenOpened = Check(name: "a menu button makes its menu when first opened, once") {
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let button = UI.menuButton(icon: "open-menu-symbolic", label: "Menu", items: [("_First", "app.first"), ("_Second", "app.second")])
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), button)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 3) { gtk_widget_get_mapped(button) != 0 }
        let emptyBefore = gtk_menu_button_get_menu_model(OpaquePointer(button)) == nil
        gtk_menu_button_popup(OpaquePointer(button))
        let model = gtk_menu_button_get_menu_model(OpaquePointer(button))
        let items = model.map { g_menu_model_get_n_items($0) } ?? 0
        gtk_menu_button_popdown(OpaquePointer(button))
        gtk_menu_button_popup(OpaquePointer(button))
        let same = gtk_menu_button_get_menu_model(OpaquePointer(button)) == model
        gtk_menu_button_popdown(OpaquePointer(button))
        return Outcome(passed: emptyBefore && items == 2 && same, detail: "empty before: \(emptyBefore), \(items) items, kept: \(same)")
    }
}
