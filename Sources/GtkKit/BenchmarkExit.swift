import CGtk
import Foundation

/// The benchmark-only switch: with `BUILDEROS_BENCHMARK_EXIT_AFTER_FIRST_FRAME=<seconds>` the
/// process exits that many seconds after a window's first painted frame (0: at once). Nothing
/// else changes under it. Used by `meson-helpers/benchmark` to time start-up and read peak memory.
@MainActor
public enum BenchmarkExit {
    public static let variable = "BUILDEROS_BENCHMARK_EXIT_AFTER_FIRST_FRAME"

    public static func arm(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard let value = ProcessInfo.processInfo.environment[variable], let seconds = Double(value) else { return }
        FirstPaint.after(window) {
            if seconds <= 0 { exit(0) }
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { exit(0) }
        }
    }
}
