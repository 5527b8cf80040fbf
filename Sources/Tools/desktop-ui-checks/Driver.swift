import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// Drives the real app's windows the way a user would: finds widgets by name, types, clicks,
/// waits for what the screen shows, and saves each screen as a PNG in light and dark.
@MainActor
final class Driver {
    let app: DesktopApplication
    let scenario: String
    let outputDirectory: URL
    private(set) var passed = 0
    private(set) var failed = 0
    /// Whether each screenshot's screen is also read through AT-SPI (`accessibleNames`).
    var readsAccessibleNames = true

    init(app: DesktopApplication, scenario: String, outputDirectory: URL) {
        (self.app, self.scenario, self.outputDirectory) = (app, scenario, outputDirectory)
    }

    // MARK: Verdicts

    func expect(_ condition: Bool, _ name: String, _ detail: @autoclosure () -> String = "") {
        if condition {
            passed += 1
            print("PASS \(scenario): \(name)")
        } else {
            failed += 1
            print("FAIL \(scenario): \(name) \(detail())")
        }
    }

    /// Waits until `window` shows `text`; the check fails with what it shows instead.
    func expectShown(_ text: String, _ name: String, in window: Widget) async {
        expect(await wait { texts(window).contains(text) }, name, texts(window))
    }

    // MARK: Finding things

    func window(named name: String) -> Widget? {
        let list = gtk_window_get_toplevels()!
        for index in 0..<g_list_model_get_n_items(list) {
            let object = g_list_model_get_item(list, index)!
            g_object_unref(object)  // the list still holds it
            let widget = object.assumingMemoryBound(to: GtkWidget.self)
            if String(cString: gtk_widget_get_name(widget)) == name, gtk_widget_get_visible(widget) != 0 { return widget }
        }
        return nil
    }

    func widget(_ name: String, in window: Widget) -> Widget? { WidgetTree.named(name, in: window) }

    /// A message as the app shows it in this process's language (the checks compare with what is shown;
    /// the translation function called with a literal would put the checks' strings in the template).
    func translated(_ msgid: String) -> String { L(msgid) }

    func texts(_ window: Widget) -> String { WidgetTree.visibleTexts(in: window).joined(separator: "\n") }

    /// Lets GLib run (the bridge keeps async work flowing) until `condition` holds.
    @discardableResult
    func wait(seconds: Double = 20, until condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return true
    }

    /// Returns once the widget's window has drawn a whole frame after this call (two ticks: the
    /// frame of the first one lays out and paints before the second).
    func nextFrame(_ widget: Widget) async {
        for _ in 0..<2 { await oneFrame(widget) }
    }

    /// Waits for exactly one frame of `widget`'s clock.
    func oneFrame(_ widget: Widget) async {
        var keep: FrameCoalescer?
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            keep = FrameCoalescer(widget: widget) { done.resume() }
            keep?.schedule()
        }
        _ = keep
    }

    /// Whether GDK opened an X11 display (Xvfb), not a Wayland one (headless mutter).
    var onX11: Bool {
        guard let display = gdk_display_get_default(), let name = g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(display)) else {
            return false
        }
        return String(cString: name) == "GdkX11Display"
    }

    func settle() async { try? await Task.sleep(nanoseconds: 150_000_000) }

    // MARK: Acting

    func click(_ name: String, in window: Widget) {
        guard let button = widget(name, in: window) else { return expect(false, "button \(name) exists") }
        Signals.emit(UnsafeMutableRawPointer(button), "clicked")
    }

    /// Opens a menu button's popover, as a click on it does (its content is made when first opened).
    func popup(_ name: String, in window: Widget) {
        guard let button = widget(name, in: window) else { return expect(false, "menu button \(name) exists") }
        gtk_menu_button_popup(OpaquePointer(button))
    }

    func type(_ text: String, into name: String, in window: Widget) {
        guard let entry = widget(name, in: window) else { return expect(false, "entry \(name) exists") }
        UI.setText(ofEditable: entry, text)
    }

    func press(_ name: String, in window: Widget) {
        guard let entry = widget(name, in: window) else { return expect(false, "entry \(name) exists") }
        Signals.emit(UnsafeMutableRawPointer(entry), "activate")
    }

    /// Delivers a key press to the widget's key controllers as GTK does for a real key: capture phase
    /// first, then the others, stopping at the first that handles it (a field's own controller must not
    /// also insert the Enter that sent its text). Not to GTK's own capture-phase ones (a search field's
    /// key capture): they act on real events alone (`RealKeys`).
    func sendKey(_ keyval: UInt32, to window: Widget, modifiers: UInt32 = 0) {
        let keyType = gtk_event_controller_key_get_type()
        var capture: [UnsafeMutableRawPointer] = []
        var others: [UnsafeMutableRawPointer] = []
        forEachController(of: window, type: keyType) { object in
            let controller = OpaquePointer(object)
            guard gtk_event_controller_get_propagation_phase(controller) == GTK_PHASE_CAPTURE else { return others.append(object) }
            if gtk_event_controller_get_name(controller).map({ String(cString: $0) }) == keyControllerName { capture.append(object) }
        }
        // Held by the widget, which a handler may change: kept alive until every one is asked.
        let ordered = capture + others
        ordered.forEach { _ = g_object_ref($0) }
        defer { ordered.forEach { g_object_unref($0) } }
        for object in ordered where emitKeyPressed(on: object, keyval, modifiers) { return }
    }

    private func emitKeyPressed(on controller: UnsafeMutableRawPointer, _ keyval: UInt32, _ modifiers: UInt32) -> Bool {
        let keyType = gtk_event_controller_key_get_type()
        var values = [GValue](repeating: GValue(), count: 4)
        g_value_init(&values[0], keyType)
        g_value_set_object(&values[0], controller)
        for i in 1...3 { g_value_init(&values[i], GType(7 << G_TYPE_FUNDAMENTAL_SHIFT)) }  // G_TYPE_UINT
        g_value_set_uint(&values[1], keyval)
        g_value_set_uint(&values[2], 9)
        g_value_unset(&values[3])
        g_value_init(&values[3], gdk_modifier_type_get_type())
        g_value_set_flags(&values[3], modifiers)
        var handled = GValue()
        g_value_init(&handled, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_BOOLEAN
        g_signal_emitv(&values, g_signal_lookup("key-pressed", keyType), 0, &handled)
        for i in 0..<4 { g_value_unset(&values[i]) }
        defer { g_value_unset(&handled) }
        return g_value_get_boolean(&handled) != 0
    }

    /// Types into a multi-line field (GtkTextView), as a paste would.
    func typeText(_ text: String, into name: String, in window: Widget) {
        guard let view = widget(name, in: window) else { return expect(false, "text view \(name) exists") }
        gtk_text_buffer_set_text(gtk_text_view_get_buffer(gtkCast(view, to: GtkTextView.self)), text, -1)
    }

    /// The text in a multi-line field (GtkTextView).
    func textViewText(_ name: String, in window: Widget) -> String? {
        widget(name, in: window).map { UI.text(ofBuffer: gtk_text_view_get_buffer(gtkCast($0, to: GtkTextView.self))) }
    }

    /// Whether `widget` is of GType `type` or one derived from it.
    func isA(_ widget: Widget, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    /// Activates a window action (`win.page-dashboard`), as its accelerator or menu item would.
    func activate(_ action: String, in window: Widget) {
        gtk_widget_activate_action_variant(window, action, nil)
    }

    /// Widgets whose name or state name (`WidgetTree.setStateName`) starts with `prefix` (e.g.
    /// every "message-assistant-complete" row).
    func named(prefix: String, in window: Widget) -> [Widget] {
        WidgetTree.all(window).filter { (WidgetTree.stateName(of: $0) ?? String(cString: gtk_widget_get_name($0))).hasPrefix(prefix) }
    }

    /// Answers the open file chooser (GTK's own dialog, used when no portal runs) with `path`.
    func chooseFile(_ path: String) async -> Bool {
        guard await wait(seconds: 10, until: { fileChooser() != nil }), let dialog = fileChooser() else { return false }
        let chooser = OpaquePointer(dialog)
        if gtk_file_chooser_get_action(chooser) == GTK_FILE_CHOOSER_ACTION_SAVE {
            // A file to be made: its whole path typed in the name field, as a user may.
            gtk_file_chooser_set_current_name(chooser, path)
        } else {
            let file = g_file_new_for_path(path)
            _ = gtk_file_chooser_set_file(chooser, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        // The chooser loads the folder before it can select the file in it.
        await wait(seconds: 5) {
            guard let file = gtk_file_chooser_get_file(chooser) else { return false }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            return g_file_get_path(file).map { text in
                defer { g_free(text) }
                return String(cString: text) == path
            } ?? false
        }
        gtk_dialog_response(gtkCast(dialog, to: GtkDialog.self), Int32(GTK_RESPONSE_ACCEPT.rawValue))
        return true
    }

    private func fileChooser() -> Widget? {
        let list = gtk_window_get_toplevels()!
        for index in 0..<g_list_model_get_n_items(list) {
            let object = g_list_model_get_item(list, index)!
            g_object_unref(object)
            let widget = object.assumingMemoryBound(to: GtkWidget.self)
            if g_type_check_instance_is_a(
                UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                gtk_file_chooser_dialog_get_type()) != 0, gtk_widget_get_visible(widget) != 0
            {
                return widget
            }
        }
        return nil
    }

    /// Runs `body` for each of the widget's event controllers of `type` (to emit their signals).
    private func forEachController(of widget: Widget, type: GType, _ body: (UnsafeMutableRawPointer) -> Void) {
        let controllers = gtk_widget_observe_controllers(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        for index in 0..<g_list_model_get_n_items(controllers) {
            let object = g_list_model_get_item(controllers, index)!
            defer { g_object_unref(object) }
            if g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), type) != 0 { body(object) }
        }
    }

    /// Presses the secondary button on `widget` (its GtkGestureClick's "pressed", as a right-click).
    func rightClick(_ widget: Widget) {
        let clickType = gtk_gesture_click_get_type()
        forEachController(of: widget, type: clickType) { object in
            var values = [GValue](repeating: GValue(), count: 4)
            g_value_init(&values[0], clickType)
            g_value_set_object(&values[0], object)
            g_value_init(&values[1], GType(6 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_INT
            g_value_set_int(&values[1], 1)
            for i in 2...3 { g_value_init(&values[i], GType(15 << G_TYPE_FUNDAMENTAL_SHIFT)); g_value_set_double(&values[i], 12) }  // G_TYPE_DOUBLE
            g_signal_emitv(&values, g_signal_lookup("pressed", clickType), 0, nil)
            for i in 0..<4 { g_value_unset(&values[i]) }
        }
    }

    /// The text this app put on the clipboard (read from the local content provider, synchronously).
    func clipboardText(of widget: Widget) -> String? {
        guard let provider = gdk_clipboard_get_content(gtk_widget_get_clipboard(widget)) else { return nil }
        var value = GValue()
        g_value_init(&value, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_STRING
        defer { g_value_unset(&value) }
        guard gdk_content_provider_get_value(provider, &value, nil) != 0, let text = g_value_get_string(&value) else { return nil }
        return String(cString: text)
    }

    func accelerator(for action: String) -> String? {
        let accels = gtk_application_get_accels_for_action(app.application, action)
        defer { g_strfreev(accels) }
        return accels?.pointee.map { String(cString: $0) }
    }

    func isSensitive(_ name: String, in window: Widget) -> Bool {
        widget(name, in: window).map { gtk_widget_is_sensitive($0) != 0 } ?? false
    }

    func hasFocus(within window: Widget) -> Bool {
        gtk_window_get_focus(gtkCast(window, to: GtkWindow.self)) != nil
    }

    // MARK: Screenshots

    /// Saves the window in light and in dark (`<scenario>-<screen>-<theme>.png`), then restores
    /// the light theme the checks run in. Every screen worth a picture is also read the way a
    /// screen reader reads it (`accessibleNames`), and its placeholders are checked whole.
    func screenshot(_ window: Widget, _ screen: String) async {
        await accessibleNames(screen)
        guard let appearance = app.appearance else { return }
        for choice in [Appearance.light, .dark] {
            appearance.set(choice)
            await settle()
            let path = outputDirectory.appendingPathComponent("\(scenario)-\(screen)-\(choice.rawValue).png").path
            // A window changed since its last frame has no picture yet: wait for one (a loaded
            // machine's Wayland compositor has taken more than a second).
            var failure: WidgetSnapshot.Failure?
            for _ in 0..<30 {
                do throws(WidgetSnapshot.Failure) {
                    try WidgetSnapshot.savePNG(of: window, to: path)
                    failure = nil
                    break
                } catch {
                    failure = error
                    await settle()
                }
            }
            expect(failure == nil, "screenshot \(screen) (\(choice.rawValue))", failure.map { "\($0)" } ?? "")
            // As the picture shows them: the layouts of its frame.
            if choice == .light { placeholdersWhole(window, screen) }
            await displayShot(window, "\(scenario)-\(screen)-\(choice.rawValue).png")
        }
        appearance.set(.light)
        await settle()
    }

    /// With `BUILDEROS_DISPLAY_SHOTS=DIR` (meson-helpers/readme-screenshots), the window as the X
    /// display shows it, into DIR: a GTK snapshot leaves a web view's content out. Xvfb runs no window
    /// manager, so the window is at the screen's top left corner. A second first: the web view's
    /// process paints on its own time.
    func displayShot(_ window: Widget, _ name: String) async {
        guard let folder = ProcessInfo.processInfo.environment["BUILDEROS_DISPLAY_SHOTS"], onX11 else { return }
        try? await Task.sleep(nanoseconds: 1_000_000_000)
        let size = "\(gtk_widget_get_width(window))x\(gtk_widget_get_height(window))+0+0"
        let grab = Process()
        grab.executableURL = URL(fileURLWithPath: "/usr/bin/import")
        grab.arguments = ["-window", "root", "-crop", size, "+repage", (folder as NSString).appendingPathComponent(name)]
        let done = (try? grab.run()) != nil
        if done { grab.waitUntilExit() }
        expect(done && grab.terminationStatus == 0, "screenshot \(name) from the display")
    }

    // MARK: Accessibility

    /// Reads every window of this process through AT-SPI, as a screen reader does
    /// (`meson-helpers/accessible-names`), and fails on a name it could not say cleanly: a mnemonic's
    /// underscore, the same words twice, a GTK type name, a control without a name.
    func accessibleNames(_ screen: String) async {
        // Without a session bus nothing can read the app at all.
        let application = UnsafeMutableRawPointer(app.application).assumingMemoryBound(to: GApplication.self)
        guard readsAccessibleNames, g_application_get_dbus_connection(application) != nil else { return }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("accessible-names-\(getpid()).txt")
        _ = FileManager.default.createFile(atPath: report.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: report) }
        let reader = Process()
        reader.executableURL = SourceTree.root.appendingPathComponent("meson-helpers/accessible-names")
        reader.arguments = [String(getpid())]
        reader.standardOutput = try? FileHandle(forWritingTo: report)
        reader.standardError = reader.standardOutput
        do { try reader.run() } catch { return expect(false, "accessible names on \(screen)", "\(error)") }
        // The app answers the reader's questions on this main loop, so wait on it, never block it.
        let ended = await wait(seconds: 60) { !reader.isRunning }
        if !ended { reader.terminate() }
        let output = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        expect(ended && reader.terminationStatus == 0, "accessible names on \(screen)", "\n" + output)
    }
}
