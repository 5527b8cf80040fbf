import CGtk
import Foundation

/// The benchmark-only switch: with `BUILDEROS_BENCHMARK_EXIT_AFTER_FIRST_FRAME=<seconds>` the
/// process exits that many seconds after a window's first painted frame (0: as soon as the main
/// loop is idle after it), and with
/// `BUILDEROS_BENCHMARK_FIRST_FRAME_FILE=<path>` it first writes that frame's time there
/// (CLOCK_MONOTONIC, in nanoseconds): start-up ends at the frame, not when the process has ended.
/// Nothing else changes under it. Used by `meson-helpers/benchmark` to time start-up and read peak memory.
@MainActor
public enum BenchmarkExit {
    public static let variable = "BUILDEROS_BENCHMARK_EXIT_AFTER_FIRST_FRAME"
    public static let frameFileVariable = "BUILDEROS_BENCHMARK_FIRST_FRAME_FILE"

    public static func arm(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard let value = ProcessInfo.processInfo.environment[variable], let seconds = Double(value) else { return }
        let frameFile = ProcessInfo.processInfo.environment[frameFileVariable]
        FirstPaint.atPaint(window) {
            if let frameFile {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                try? "\(Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec))\n".write(toFile: frameFile, atomically: false, encoding: .utf8)
            }
            // At once: when the main loop next has nothing else to do, so that the work the first
            // paint let go (`FirstPaint.after`: what a start keeps for the next one) is done, as it
            // is when the app keeps running. `_exit`, without the libraries' destructors: that work
            // has threads loading libsoup and libcurl by then, and `exit` tearing the libraries down
            // under a `dlopen` can abort (GObject's types registered a second time).
            if seconds <= 0 {
                g_idle_add_full(G_PRIORITY_LOW, { _ in _exit(0) }, nil, nil)
                return
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { exit(0) }
        }
    }
}
