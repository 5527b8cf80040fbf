import Foundation
import ToolSupport

/// Times a start from spawning the process to its first painted frame, as the process itself saw the frame
/// (`GtkKit/BenchmarkExit` writes the frame's time to a file and exits right after it); the whole process's time,
/// exit included, is kept beside. The exit is not start-up, and it is not alike: a process that ends holding an
/// inotify watch (the app's GSettings keyfile backend, which the benchmark's sandboxes use) waits 2–20 ms in the
/// kernel for the watch to be retired; the C window holds none.
final class FirstFrameTimer {
    private let frameFile: String
    private(set) var wholeProcess: [String: [Double]] = [:]
    private(set) var quietWaits: [Double] = []

    init(work: URL) { frameFile = work.appendingPathComponent("first-frame").path }

    /// Seconds to the first frame (NaN when none was painted). `quiet`: after waiting for a quiet machine, as a
    /// user starts an app on a quiet desktop (`QuietMachine`).
    func time(_ label: String, _ path: String, _ arguments: [String], _ environment: [String: String], quiet: Bool = true) -> Double {
        unlink(frameFile)
        if quiet { quietWaits.append(QuietMachine.wait()) }
        let run = Processes.run(
            path, arguments, environment: environment.merging([BenchmarkExitVariable.name: "0", BenchmarkExitVariable.frameFile: frameFile]) { $1 })
        wholeProcess[label, default: []].append(run.seconds)
        guard let text = try? String(contentsOfFile: frameFile, encoding: .utf8),
            let painted = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            print("  \(label): no first frame written")
            return .nan
        }
        return Double(painted - run.spawnedNanoseconds) / 1e9
    }

    /// The two lines printed under the start-up rows: how long the quiet waits took, and each whole process.
    func printAside() {
        print(
            String(
                format: "  waited for a quiet machine before each start: median %.0f ms, longest %.0f ms", Stats.median(quietWaits) * 1000,
                (quietWaits.max() ?? 0) * 1000))
        for (label, seconds) in wholeProcess.sorted(by: { $0.key < $1.key }) {
            print(String(format: "  whole process, exit included: %@ %.0f ms", label, Stats.median(seconds) * 1000))
        }
    }
}
