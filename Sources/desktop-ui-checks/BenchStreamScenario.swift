import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// For `meson-helpers/benchmark`: the real main window receives a paced stream (the server sends
/// 2,000 chunks a second). Counts frames whose work took over 16 ms (frame clock phases, from
/// before-paint to after-paint) and the longest main-loop stall (a 1 ms timer's worst lateness).
/// Prints MEASURE lines; asserts nothing about timing.
@MainActor
enum BenchStreamScenario {
    static func run(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate("win.page-chat", in: main)
        await d.settle()
        guard let clock = gtk_widget_get_frame_clock(main) else { return d.expect(false, "the window has a frame clock") }
        // Each phase's handlers run after GTK's own, so each of ours marks the end of that phase.
        final class Counts { var frames = 0, late = 0, start = 0, mark = 0, update = 0, layout = 0, paint = 0, measuring = true }
        let counts = Counts()
        let clockObject = UnsafeMutableRawPointer(clock)
        Signals.connect(clockObject, "before-paint") { counts.start = g_get_monotonic_time(); counts.mark = counts.start }
        Signals.connect(clockObject, "update") { let now = g_get_monotonic_time(); counts.update += now - counts.mark; counts.mark = now }
        Signals.connect(clockObject, "layout") { let now = g_get_monotonic_time(); counts.layout += now - counts.mark; counts.mark = now }
        Signals.connect(clockObject, "paint") { let now = g_get_monotonic_time(); counts.paint += now - counts.mark; counts.mark = now }
        Signals.connect(clockObject, "after-paint") {
            guard counts.measuring, counts.start > 0 else { return }
            counts.frames += 1
            if g_get_monotonic_time() - counts.start > 16_000 { counts.late += 1 }
        }
        var worstStall = 0.0
        var worstAt = Date()
        let stallWatch = Task { @MainActor in
            while !Task.isCancelled {
                let before = DispatchTime.now().uptimeNanoseconds
                try? await Task.sleep(nanoseconds: 1_000_000)
                let lateness = Double(DispatchTime.now().uptimeNanoseconds - before) / 1e6 - 1
                if lateness > worstStall { worstStall = lateness; worstAt = Date() }
            }
        }
        let seconds = Double(c.options["seconds"] ?? "10") ?? 10
        d.typeText("stream for the benchmark", into: "message-input", in: main)
        d.click("send", in: main)
        let started = Date()
        let done = await d.wait(seconds: seconds + 40) { !d.named(prefix: "message-assistant-complete", in: main).isEmpty }
        let took = Date().timeIntervalSince(started)
        counts.measuring = false
        stallWatch.cancel()
        d.expect(done, "the paced reply completes")
        let reply = ((try? HistoryStore()).map { h in h.conversations().flatMap { h.messages(in: $0.id) } } ?? []).last { $0.role == .assistant }
        let chunks = reply?.text.components(separatedBy: "word").count ?? 1
        print("MEASURE frames=\(counts.frames)")
        print("MEASURE update-ms-total=\(counts.update / 1000)")
        print("MEASURE layout-ms-total=\(counts.layout / 1000)")
        print("MEASURE paint-ms-total=\(counts.paint / 1000)")
        print("MEASURE late-frames=\(counts.late)")
        print("MEASURE longest-stall-ms=\(String(format: "%.1f", worstStall))")
        print("MEASURE chunks=\(chunks - 1)")
        print("MEASURE stall-at-seconds=\(String(format: "%.1f", worstAt.timeIntervalSince(started)))")
        print("MEASURE stream-seconds=\(String(format: "%.1f", took))")
    }
}
