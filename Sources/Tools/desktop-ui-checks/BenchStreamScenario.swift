import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// For `meson-helpers/benchmark`: the real main window receives a paced stream (the server sends
/// N chunks a second), then, with the reply on screen, the window is resized back and forth.
/// Counts frames whose work took over 16 ms (frame clock phases, before-paint to after-paint) and
/// the longest main-loop stall (a 1 ms timer's worst lateness). Prints MEASURE lines; asserts
/// nothing about timing.
@MainActor
enum BenchStreamScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["stream": run]

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        d.readsAccessibleNames = false  // it measures
        guard let main = await MainScenarios.benchmarkChat(d) else { return }
        guard let clock = gtk_widget_get_frame_clock(main) else { return d.expect(false, "the window has a frame clock") }
        let meter = FrameMeter(clock: clock)
        let expected = Double(c.options["expected-seconds"] ?? "10") ?? 10
        // Found once: walking the widget tree while the reply grows would cost frames of its own.
        guard let stop = d.widget("stop", in: main) else { return d.expect(false, "the composer has a Stop button") }
        let stopOffered = { gtk_widget_get_visible(stop) != 0 }
        d.typeText("stream for the benchmark", into: "message-input", in: main)
        d.click("send", in: main)
        let started = Date()
        meter.start()
        let began = await d.wait(seconds: 20) { stopOffered() }
        // Polled at the driver's 20 ms until the last chunk is near, then each millisecond: polling
        // each millisecond throughout would take the main loop's time from the stream it measures.
        _ = await d.wait(seconds: max(0, expected - 0.25)) { !stopOffered() }
        let deadline = Date().addingTimeInterval(expected * 4 + 40)
        while stopOffered() && Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
        let ended = !stopOffered()
        // The frame that shows the end: when its paint ended and when the frames up to it began, on
        // the clock the server times its last chunk on (the benchmark counts those begun after it).
        let shownAt = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            FirstPaint.atPaint(main) { done.resume(returning: Int(g_get_monotonic_time())) }
        }
        print("MEASURE end-shown-us=\(shownAt)")
        print("END-FRAMES-BEGAN-US " + meter.current.begins.suffix(30).map(String.init).joined(separator: " "))
        let took = Date().timeIntervalSince(started)
        let streaming = meter.stop()
        d.expect(began && ended, "the paced reply completes")
        d.expect(await d.wait(seconds: 5) { !d.named(prefix: "message-assistant-complete", in: main).isEmpty }, "the reply shows as complete")
        let reply = (MainScenarios.history().map { h in h.conversations().flatMap { h.messages(in: $0.id) } } ?? []).last { $0.role == .assistant }
        streaming.report()
        print("MEASURE update-ms-total=\(streaming.update / 1000)")
        print("MEASURE layout-ms-total=\(streaming.layout / 1000)")
        print("MEASURE paint-ms-total=\(streaming.paint / 1000)")
        print("MEASURE longest-stall-ms=\(String(format: "%.1f", streaming.worstStall))")
        print("MEASURE reply-bytes=\(reply?.text.utf8.count ?? 0)")
        print("MEASURE stream-seconds=\(String(format: "%.2f", took))")

        // Resizing with the whole reply in the list: narrow and wide, frame by frame.
        await d.settle()
        meter.start()
        for step in 0..<30 {
            let width = step % 2 == 0 ? 640 + step * 10 : 1200 - step * 10
            gtk_window_set_default_size(gtkCast(main, to: GtkWindow.self), Int32(width), 800)
            try? await Task.sleep(nanoseconds: 60_000_000)
        }
        let resize = meter.stop()
        resize.report("resize-")
        print("MEASURE resize-longest-stall-ms=\(String(format: "%.1f", resize.worstStall))")

        // To look at, after the figures: the reply's end, and its middle after a jump there (blocks the
        // column left alone while the reply streamed, drawn once the view comes to them), light and dark.
        gtk_window_set_default_size(gtkCast(main, to: GtkWindow.self), 1100, 800)
        await d.settle()
        await d.screenshot(main, "reply-end")
        if let list = d.widget("message-list", in: main), let scroller = gtk_widget_get_ancestor(list, gtk_scrolled_window_get_type()),
            let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
        {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) / 2)
            for _ in 0..<10 { await d.nextFrame(main) }
            await d.settle()
            await d.screenshot(main, "reply-middle")
        }
    }
}

/// Frame-clock phases and main-loop lateness between `start()` and `stop()`.
@MainActor
final class FrameMeter {
    struct Figures {
        var frames = 0, late = 0, update = 0, layout = 0, paint = 0, longest = 0
        var worstStall = 0.0
        /// Every frame over 16 ms: when (seconds after start) and its phases in µs.
        var lateFrames: [(at: Double, update: Int, layout: Int, paint: Int, other: Int, monotonic: Int)] = []
        /// Every frame's time in µs, for the percentiles.
        var durations: [Int] = []
        /// When each frame began ("before-paint", CLOCK_MONOTONIC µs).
        var begins: [Int] = []
        /// Every frame's layout and paint in µs, in order: whether a frame's cost grows as the reply does.
        var drawing: [(layout: Int, paint: Int)] = []

        /// The mean layout and paint per frame in each quarter of the frames, in ms.
        var drawingByQuarter: [(layout: Double, paint: Double)] {
            guard drawing.count >= 4 else { return [] }
            return (0..<4).map { q in
                let part = drawing[drawing.count * q / 4..<drawing.count * (q + 1) / 4]
                return (
                    Double(part.map(\.layout).reduce(0, +)) / Double(part.count) / 1000,
                    Double(part.map(\.paint).reduce(0, +)) / Double(part.count) / 1000
                )
            }
        }

        /// Prints frames, frames over 16 ms and the longest as MEASURE lines named with `prefix`.
        func report(_ prefix: String = "") {
            print("MEASURE \(prefix)frames=\(frames)")
            print("MEASURE \(prefix)late-frames=\(late)")
            print("MEASURE \(prefix)longest-frame-ms=\(String(format: "%.1f", Double(longest) / 1000))")
            let sorted = durations.sorted()
            for p in [50, 90, 99] where !sorted.isEmpty {
                print(
                    "MEASURE \(prefix)p\(p)-frame-ms=\(String(format: "%.1f", Double(sorted[min(sorted.count - 1, sorted.count * p / 100)]) / 1000))")
            }
            for (q, ms) in drawingByQuarter.enumerated() {
                print("MEASURE \(prefix)layout-q\(q + 1)-ms=\(String(format: "%.2f", ms.layout))")
                print("MEASURE \(prefix)paint-q\(q + 1)-ms=\(String(format: "%.2f", ms.paint))")
            }
            for frame in lateFrames {
                print(
                    String(
                        format: "LATE-FRAME %@at %.2f s: update %.1f, layout %.1f, paint %.1f, other %.1f ms (monotonic %ld µs)", prefix, frame.at,
                        Double(frame.update) / 1000, Double(frame.layout) / 1000, Double(frame.paint) / 1000, Double(frame.other) / 1000,
                        frame.monotonic))
            }
        }
    }
    private var figures = Figures()
    private var begin = 0, mark = 0, startedAt = 0
    private var phases = (update: 0, layout: 0, paint: 0)
    private var measuring = false
    /// The stall probe: a 1 ms GLib timeout on the main context, at the main-actor bridge's priority.
    /// Not a sleeping task: each of its wake-ups would hop through a pool thread, 1,000 a second of
    /// CPU beside what is measured.
    private var probe: guint = 0
    private var lastTick: gint64 = 0

    init(clock: OpaquePointer) {
        // Each phase's handlers run after GTK's own, so each of ours marks the end of that phase.
        let object = UnsafeMutableRawPointer(clock)
        Signals.connect(object, "before-paint") { [unowned self] in
            begin = g_get_monotonic_time(); mark = begin
            phases = (0, 0, 0)
        }
        Signals.connect(object, "update") { [unowned self] in
            phases.update = lap(); figures.update += phases.update
        }
        Signals.connect(object, "layout") { [unowned self] in
            phases.layout = lap(); figures.layout += phases.layout
        }
        Signals.connect(object, "paint") { [unowned self] in
            phases.paint = lap(); figures.paint += phases.paint
        }
        Signals.connect(object, "after-paint") { [unowned self] in
            guard measuring, begin > 0 else { return }
            let took = g_get_monotonic_time() - begin
            figures.frames += 1
            figures.durations.append(took)
            figures.begins.append(begin)
            figures.drawing.append((phases.layout, phases.paint))
            figures.longest = max(figures.longest, took)
            if took > 16_000 {
                figures.late += 1
                figures.lateFrames.append(
                    (
                        Double(begin - startedAt) / 1e6, phases.update, phases.layout, phases.paint,
                        took - phases.update - phases.layout - phases.paint, begin
                    ))
            }
        }
    }

    private func lap() -> Int {
        let now = g_get_monotonic_time()
        defer { mark = now }
        return now - mark
    }

    /// The figures so far, the meter still running.
    var current: Figures { figures }

    func start() {
        figures = Figures()
        begin = 0
        startedAt = g_get_monotonic_time()
        measuring = true
        lastTick = startedAt
        probe = g_timeout_add_full(
            G_PRIORITY_DEFAULT, 1,
            { user in
                MainActor.assumeIsolated { Unmanaged<FrameMeter>.fromOpaque(user!).takeUnretainedValue().tick() }
                return 1  // G_SOURCE_CONTINUE
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// How late the probe came: the time since the last tick beyond its 1 ms.
    private func tick() {
        let now = g_get_monotonic_time()
        if measuring { figures.worstStall = max(figures.worstStall, Double(now - lastTick) / 1000 - 1) }
        lastTick = now
    }

    func stop() -> Figures {
        measuring = false
        if probe != 0 { g_source_remove(probe) }
        probe = 0
        return figures
    }
}
