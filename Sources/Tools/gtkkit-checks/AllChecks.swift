import BuilderOSKit
import CGtk
import Foundation
import GtkKit

extension Checks {
    static let all: [Check] =
        [
            mainActorHop, disconnectFreesClosure, finalizeFreesClosure, booleanArgumentIsTyped, windowCloseFinalizesWidgets,
            stylesheetLoads, snapshotPNG, actionWithAccelerator,
            StartUpChecks.firstPaintRunsOnceAfterPainting, StartUpChecks.afterTheFirstWindowOfAnApplication, StartUpChecks.menuIsMadeWhenOpened,
            StartUpChecks.fontsDescribedAndLoadedAhead, StartUpChecks.unfinishedLoadingLeftBehind, DeferredReleaseChecks.releasedWhenIdle,
            SpinnerChecks.drawnWithoutAnSVGRenderer,
            FramePhasesChecks.changeAfterLayoutIsPaintedInTheSameFrame, PageSwitcherChecks.followsTheStackWithoutAskingTheServer,
            HeaderLayoutChecks.yieldsInOrder,
        ] + GLDriverPreloadChecks.all + TextLabelChecks.all + TooltipChecks.all
    /// Measurements, not behaviour: run by `meson-helpers/quality-suites` (`gtkkit-checks --measure`).
    static let measurements: [Check] = [idleLoopUsesNoCPU]
}

@MainActor
enum Checks {
    /// A @MainActor hop from a background task runs while the main thread blocks in GLib's loop.
    static let mainActorHop = Check(name: "main-actor hop from a background task runs inside the GLib loop") {
        nonisolated(unsafe) var ranOnMain = false
        nonisolated(unsafe) var latency = -1.0
        Loop.run(seconds: 5) { loop in
            nonisolated(unsafe) let loop = loop
            Task.detached {
                try? await Task.sleep(for: .milliseconds(20))
                let sent = DispatchTime.now().uptimeNanoseconds
                await MainActor.run {
                    latency = Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e6
                    ranOnMain = Thread.isMainThread
                    g_main_loop_quit(loop)
                }
            }
        }
        return Outcome(passed: ranOnMain, detail: String(format: "hop latency %.3f ms (measured, not asserted)", latency))
    }

    static let disconnectFreesClosure = Check(name: "a disconnected handler's closure is freed") {
        let button = ObjectRef(sinking: UnsafeMutableRawPointer(gtk_button_new()))
        weak var watched: Canary?
        var calls = 0
        var connection: SignalConnection?
        do {
            let canary = Canary()
            watched = canary
            connection = Signals.connect(button.pointer, "clicked") {
                _ = canary; calls += 1
            }
        }
        Signals.emit(button.pointer, "clicked")
        let aliveWhileConnected = watched != nil
        connection?.disconnect()
        Signals.emit(button.pointer, "clicked")
        return Outcome(passed: aliveWhileConnected && watched == nil && calls == 1, detail: "calls \(calls)")
    }

    /// A gboolean argument is read as the int it is (no pointer-sized bit cast): GNetworkMonitor's
    /// "network-changed" emitted with TRUE and FALSE arrives as true and false, and the handler's closure is
    /// freed on disconnect like any other.
    static let booleanArgumentIsTyped = Check(name: "a gboolean signal argument arrives typed, and its closure is freed") {
        let monitor = UnsafeMutableRawPointer(g_network_monitor_get_default()!)
        weak var watched: Canary?
        var seen: [Bool] = []
        var connection: SignalConnection?
        do {
            let canary = Canary()
            watched = canary
            connection = Signals.connect(
                monitor, "network-changed",
                withBool: { available in
                    _ = canary; seen.append(available)
                })
        }
        let type = monitor.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
        let id = g_signal_lookup("network-changed", type)
        for value in [true, false] {
            var values = [GValue](repeating: GValue(), count: 2)
            g_value_init(&values[0], type)
            g_value_set_object(&values[0], monitor)
            g_value_init(&values[1], GType(5 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_BOOLEAN
            g_value_set_boolean(&values[1], value ? 1 : 0)
            g_signal_emitv(&values, id, 0, nil)
            for i in 0..<2 { g_value_unset(&values[i]) }
        }
        let alive = watched != nil
        connection?.disconnect()
        return Outcome(passed: seen == [true, false] && alive && watched == nil, detail: "saw \(seen)")
    }

    static let finalizeFreesClosure = Check(name: "a finalized object's handler closure is freed") {
        weak var watched: Canary?
        let watch: FinalizationWatch
        do {
            let button = ObjectRef(sinking: UnsafeMutableRawPointer(gtk_button_new()))
            let canary = Canary()
            watched = canary
            Signals.connect(button.pointer, "clicked") { _ = canary }
            watch = FinalizationWatch(button.pointer)
        }  // the last reference goes with `button`: GLib finalizes and runs the destroy notify
        return Outcome(passed: watch.isFinalized && watched == nil)
    }

    static let windowCloseFinalizesWidgets = Check(name: "widgets are finalized when their window closes") {
        let window = gtk_window_new()!
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        let label = gtk_label_new("Hello")!
        let button = gtk_button_new_with_label("OK")!
        gtk_box_append(gtkCast(box, to: GtkBox.self), label)
        gtk_box_append(gtkCast(box, to: GtkBox.self), button)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), box)
        let watches = [label, button, box].map { FinalizationWatch(UnsafeMutableRawPointer($0)) }
        let windowWatch = FinalizationWatch(UnsafeMutableRawPointer(window))
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 2) { gtk_widget_get_mapped(window) != 0 }
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        let done = Loop.spin(seconds: 5) { windowWatch.isFinalized && watches.allSatisfy(\.isFinalized) }
        return Outcome(passed: done, detail: "\(watches.filter(\.isFinalized).count)/3 children finalized")
    }

    static let stylesheetLoads = Check(name: "the generated stylesheet loads into the application provider without errors") {
        guard let file = DesignTokens.defaultFile(), let tokens = try? DesignTokens.load(from: file) else {
            return Outcome(passed: false, detail: "design tokens not found")
        }
        let light = ApplicationStyle.shared.load(StyleSheetGenerator.css(tokens, theme: .light))
        let dark = ApplicationStyle.shared.load(StyleSheetGenerator.css(tokens, theme: .dark))
        let broken = ApplicationStyle.shared.load(".x { color: var(--nope); }")
        return Outcome(passed: light == 0 && dark == 0 && broken == 1, detail: "errors light \(light), dark \(dark), broken \(broken)")
    }

    static let snapshotPNG = Check(name: "a widget is saved as a PNG in-process") {
        let window = gtk_window_new()!
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 320, 120)
        let label = gtk_label_new("BuilderOS")!
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), label)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 3) { gtk_widget_get_mapped(window) != 0 && gtk_widget_get_width(window) > 0 }
        _ = Loop.spin(seconds: 0.3) { false }  // let it paint a frame
        // GTKKIT_SNAPSHOT_DIR keeps the picture for a person to look at; otherwise it is removed.
        let keep = ProcessInfo.processInfo.environment["GTKKIT_SNAPSHOT_DIR"]
        let folder = keep.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let path = folder.appendingPathComponent("gtkkit-snapshot-\(getpid()).png").path
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: path) }; gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        do { try WidgetSnapshot.savePNG(of: window, to: path) } catch { return Outcome(passed: false, detail: "\(error)") }
        let data = FileManager.default.contents(atPath: path) ?? Data()
        let isPNG = data.starts(with: [0x89, 0x50, 0x4E, 0x47])
        return Outcome(passed: isPNG && data.count > 100, detail: "\(data.count) bytes")
    }

    static let actionWithAccelerator = Check(name: "an app action runs and carries its accelerator") {
        let app = gtk_application_new("app.builderos.Desktop.Checks", G_APPLICATION_NON_UNIQUE)!
        defer { g_object_unref(UnsafeMutableRawPointer(app)) }
        var activations = 0
        Actions.add("quit", to: app, accelerators: ["<Control>q"]) { activations += 1 }
        if let action = g_action_map_lookup_action(OpaquePointer(app), "quit") { g_action_activate(action, nil) }
        let accels = gtk_application_get_accels_for_action(app, "app.quit")
        defer { g_strfreev(accels) }
        let first = accels?.pointee.map { String(cString: $0) }
        return Outcome(passed: activations == 1 && first == "<Control>q", detail: "accelerator \(first ?? "none")")
    }

    /// No busy loop: idle in GLib's loop for 5 s and count the CPU time used.
    static let idleLoopUsesNoCPU = Check(name: "the idle loop uses under 1% of a core over 5 s") {
        var before = rusage(), after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        Loop.run(seconds: 5) { _ in }
        getrusage(RUSAGE_SELF.rawValue, &after)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        let used = seconds(after.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_utime) - seconds(before.ru_stime)
        let share = used / 5 * 100
        return Outcome(passed: share < 1, detail: String(format: "%.2f%% of a core", share))
    }
}
