import CGtk

/// When the main loop's current iteration started dispatching (its poll returned). A handler called
/// from inside a dispatch can tell how long the work before it took: the terminal sizes what it
/// feeds VTE by how long VTE's last parsing pass took, which VTE does not report.
@MainActor
public enum MainLoopClock {
    private static var installed = false

    /// Wraps the default main context's poll (once). Call on the main thread.
    public static func install() {
        guard !installed else { return }
        installed = true
        g_main_context_set_poll_func(nil) { fds, count, timeout in
            let result = g_poll(fds, count, timeout)
            iterationStart = g_get_monotonic_time()
            return result
        }
    }

    /// Seconds since the current iteration's dispatching began (0 before `install`).
    public static var secondsIntoIteration: Double {
        guard installed else { return 0 }
        return Double(g_get_monotonic_time() - iterationStart) / 1e6
    }
}

/// Written by the poll function, which runs on the main thread only.
nonisolated(unsafe) private var iterationStart: gint64 = 0
