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
        FirstPaint.after(window) {
            runs += 1; paintsBefore = paints
        }
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
        return Outcome(
            passed: waitedForAFrame && runs == 1 && paints >= 3,
            detail: "ran \(runs) time(s), \(paints) paints counted, \(paintsBefore) counted before it ran")
    }

    static let afterTheFirstWindowOfAnApplication = Check(
        name: "work after an application's first window paints runs once, for whichever window paints first"
    ) {
        let application = gtk_application_new(nil, G_APPLICATION_NON_UNIQUE)!
        defer { g_object_unref(UnsafeMutableRawPointer(application)) }
        // Windows join an application once it is registered (no id: no bus needed).
        g_application_register(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), nil, nil)
        var runs = 0
        FirstPaint.afterFirstWindow(of: application) { runs += 1 }
        // Added first but never shown: it never paints.
        let hidden = gtk_window_new()!
        gtk_application_add_window(application, gtkCast(hidden, to: GtkWindow.self))
        let shown = gtk_window_new()!
        gtk_window_set_child(gtkCast(shown, to: GtkWindow.self), gtk_label_new("BuilderOS"))
        gtk_application_add_window(application, gtkCast(shown, to: GtkWindow.self))
        let beforePresenting = runs
        gtk_window_present(gtkCast(shown, to: GtkWindow.self))
        _ = Loop.spin(seconds: 5) { runs > 0 }
        // A later window paints too: the work is not done again.
        let later = gtk_window_new()!
        gtk_window_set_child(gtkCast(later, to: GtkWindow.self), gtk_label_new("later"))
        gtk_application_add_window(application, gtkCast(later, to: GtkWindow.self))
        gtk_window_present(gtkCast(later, to: GtkWindow.self))
        _ = Loop.spin(seconds: 1) { false }
        for window in [hidden, shown, later] { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        return Outcome(passed: beforePresenting == 0 && runs == 1, detail: "\(beforePresenting) run(s) before a window was shown, \(runs) after")
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

    static let fontsDescribedAndLoadedAhead = Check(name: "the fonts a window shows are described, and loaded on another thread they become GTK's") {
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let plain = gtk_label_new("Plain text")!
        let marked = gtk_label_new(nil)!
        gtk_label_set_markup(OpaquePointer(marked), "<b>Bold</b> and <tt>code</tt>")
        let hidden = gtk_label_new(nil)!
        gtk_label_set_markup(OpaquePointer(hidden), "<i>not shown</i>")
        gtk_widget_set_visible(hidden, 0)
        // Met last, but sets the most characters: listed first (the font the preload draws in).
        let code = gtk_label_new(nil)!
        gtk_label_set_markup(OpaquePointer(code), "<tt>let mostOfTheTextIsSetInThisFont = true</tt>")
        [plain, marked, hidden, code].forEach { gtk_box_append(gtkCast(box, to: GtkBox.self), $0) }
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), box)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 3) { gtk_widget_get_mapped(marked) != 0 }
        let described = FontPreload.describe(window, limit: 32)
        let base = String(cString: pango_font_description_to_string(pango_context_get_font_description(gtk_widget_get_pango_context(plain))))
        // Markup's fonts as Pango merges them in: the label's font in bold, and in the monospace family.
        let expected = [
            base, base.replacingOccurrences(of: " ", with: " Bold ", options: .backwards, range: base.range(of: " ", options: .backwards)),
        ]
        let listsMarkup = expected.allSatisfy(described.fonts.contains) && described.fonts.contains { $0.hasPrefix("Monospace") }
        let skipsHidden = !described.fonts.contains { $0.contains("Italic") }
        let mostUsedFirst = described.fonts.first?.hasPrefix("Monospace") == true
        // Each font's characters, each once: the bold span's own, the code's with its spaces and "=".
        let charactersOf = { (font: String) in described.fonts.firstIndex(of: font).map { described.characters[$0] } ?? "" }
        let boldCharacters = charactersOf(expected[1]) == "Bold"
        let codeCharacters =
            described.fonts.first.map(charactersOf).map {
                Set($0) == Set("let mostOfTheTextIsSetInThisFont = true" + "code") && $0.count == Set($0).count
            } ?? false
        let limited = FontPreload.describe(window, limit: 1).fonts.count == 1
        var before = (width: Int32(0), height: Int32(0))
        pango_layout_get_pixel_size(gtk_label_get_layout(OpaquePointer(marked)), &before.width, &before.height)
        let previous = pango_cairo_font_map_get_default()
        FontPreload.start { described }
        _ = Loop.spin(seconds: 10) { FontPreload.hasEnded }
        let madeDefault = FontPreload.finish() && pango_cairo_font_map_get_default() != previous && FontPreload.loaded == described
        // The same text in the loaded fonts lays out as before.
        let again = gtk_label_new(nil)!
        gtk_label_set_markup(OpaquePointer(again), "<b>Bold</b> and <tt>code</tt>")
        gtk_box_append(gtkCast(box, to: GtkBox.self), again)
        _ = Loop.spin(seconds: 3) { gtk_widget_get_mapped(again) != 0 }
        var after = (width: Int32(0), height: Int32(0))
        pango_layout_get_pixel_size(gtk_label_get_layout(OpaquePointer(again)), &after.width, &after.height)
        let usesIt = pango_context_get_font_map(gtk_widget_get_pango_context(again)) == pango_cairo_font_map_get_default()
        return Outcome(
            passed: listsMarkup && skipsHidden && mostUsedFirst && boldCharacters && codeCharacters && limited && madeDefault && usesIt
                && before == after,
            detail:
                "fonts \(described.fonts), characters \(described.characters), settings \(described.context); markup listed: \(listsMarkup), hidden skipped: \(skipsHidden), most used first: \(mostUsedFirst), characters: \(boldCharacters) \(codeCharacters), limit: \(limited), default: \(madeDefault), used: \(usesIt), size \(before) → \(after)"
        )
    }

    static let unfinishedLoadingLeftBehind = Check(
        name: "fonts still loading when the window is built are left behind: GTK loads its own, nothing waits"
    ) {
        let label = gtk_label_new("Sans")!
        g_object_ref_sink(label)
        defer { g_object_unref(label) }
        var context = FontPreload.describe(label, limit: 1)
        context.fonts = ["Sans 12"]
        context.characters = ["abc"]
        let wanted = context
        let (previousMap, previousLoaded) = (pango_cairo_font_map_get_default(), FontPreload.loaded)
        // Held inside the loading until the check lets it go; should `finish` wait for it, the
        // loading goes on after 10 s and the check fails instead of hanging.
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { release.signal() }
        FontPreload.start {
            release.wait()
            return wanted
        }
        let used = FontPreload.finish()
        let runningAfterFinish = !FontPreload.hasEnded && FontPreload.leftBehind
        release.signal()
        let ended = Loop.spin(seconds: 10) { FontPreload.hasEnded }
        let unchanged = pango_cairo_font_map_get_default() == previousMap && FontPreload.loaded == previousLoaded
        // Taken once: the loading's font map, dropped when it ended, is not handed out later.
        let notLater = !FontPreload.finish()
        return Outcome(
            passed: !used && runningAfterFinish && ended && unchanged && notLater,
            detail:
                "used: \(used), still loading after finish: \(runningAfterFinish), ended: \(ended), GTK's font map and the loaded fonts unchanged: \(unchanged), taken later: \(!notLater)"
        )
    }
}
