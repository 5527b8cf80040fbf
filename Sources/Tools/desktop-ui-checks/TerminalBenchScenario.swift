import BuilderOSKit
import CGtk
import CTerminalView
import DesktopUI
import Foundation
import GtkKit

/// `desktop-ui-checks --scenario TerminalBenchScenario.flood`: 50 MB of output at full speed (`yes | head -c 50M` on
/// the server) through a terminal tab; prints the longest main-loop stall and the peak memory. A
/// measure for `meson-helpers/benchmark`, not a test.
@MainActor
enum TerminalBenchScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["flood": run]

    static func peakRSSKiB() -> Int {
        let line = ProcessScan.procText("/proc/self/status").split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        d.readsAccessibleNames = false  // it measures
        // The server stands in for another machine: on this one its flood (`yes`, `head`, the PTY reader,
        // the socket) competes with the window for the same two cores, so it runs as an idle-class task.
        // `--server-contends yes` measures the window with the flood at its own priority.
        let idle = c.options["server-contends"] != "yes"
        guard let server = try? ResilienceScenarios.Server(c, extra: TerminalScenario.serverArguments, idle: idle) else {
            return d.expect(false, "the server starts")
        }
        defer { server.kill() }
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        gtk_window_set_default_size(gtkCast(main, to: GtkWindow.self), 1100, 800)
        d.activate(PageID.terminal.windowAction, in: main)
        guard await d.wait(until: { TerminalScenario.tabs(d, main).first?.isConnected == true }), let tab = TerminalScenario.tabs(d, main).first,
            let clock = gtk_widget_get_frame_clock(main)
        else { return d.expect(false, "a terminal tab connects") }
        await d.settle()
        let before = peakRSSKiB()
        let meter = FrameMeter(clock: clock)
        let started = Date()
        meter.start()
        // The end is noticed through a file the shell touches (same machine): reading VTE's text while the
        // flood arrives would make VTE parse everything queued at once, and measure that instead.
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("bos-flood-\(UUID().uuidString)").path
        tab.type("yes | head -c 50000000; echo flood-$((2*3))-end; touch \(marker)\r")
        var done = await d.wait(seconds: 600) { FileManager.default.fileExists(atPath: marker) }
        // Then until the tab has shown it all (VTE's text is read once a second, no more).
        while done, !tab.text.contains("flood-6-end") {
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            if Date().timeIntervalSince(started) > 600 { done = false }
        }
        try? FileManager.default.removeItem(atPath: marker)
        let took = Date().timeIntervalSince(started)
        let figures = meter.stop()
        d.expect(done, "the 50 MB reach the terminal")
        print("MEASURE terminal-server-idle-class=\(idle)")
        print("MEASURE terminal-seconds=\(String(format: "%.1f", took))")
        print("MEASURE terminal-frames=\(figures.frames)")
        print("MEASURE terminal-longest-stall-ms=\(String(format: "%.1f", figures.worstStall))")
        print("MEASURE terminal-longest-frame-ms=\(String(format: "%.1f", Double(figures.longest) / 1000))")
        print("MEASURE terminal-peak-rss-mib-before=\(before / 1024) after=\(peakRSSKiB() / 1024)")
    }
}
