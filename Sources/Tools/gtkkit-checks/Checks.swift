import BuilderOSKit
import CGtk
import Foundation
import GtkKit

struct Outcome {
    var passed: Bool
    var detail = ""
}

@MainActor
struct Check {
    let name: String
    let run: @MainActor () -> Outcome
}

/// Something a closure captures, watched through a weak reference.
final class Canary {}

@MainActor
enum Loop {
    /// Runs GLib's loop until `condition` holds or `seconds` pass; true if it held.
    static func spin(seconds: Double = 5, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
        return condition()
    }

    /// Blocks in GLib's loop (as g_application_run does) until quit or `seconds` pass.
    static func run(seconds: Double, _ setUp: (OpaquePointer) -> Void) {
        let loop = g_main_loop_new(nil, 0)!
        // Our own reference to the timeout source, destroyed after the run even when the loop
        // quit early, so it can never fire later on a freed loop.
        let timeout = g_timeout_source_new(UInt32(seconds * 1000))!
        g_source_set_callback(
            timeout,
            { loop in
                g_main_loop_quit(OpaquePointer(loop)); return 0
            }, UnsafeMutableRawPointer(loop), nil)
        g_source_attach(timeout, nil)
        setUp(loop)
        g_main_loop_run(loop)
        g_source_destroy(timeout)
        g_source_unref(timeout)
        g_main_loop_unref(loop)
    }
}

/// Counts the criticals GLib and GTK log (and writes them as usual), so that a check which
/// causes one fails.
enum CriticalLog {
    nonisolated(unsafe) static var logged = 0

    static func count() {
        g_log_set_writer_func(
            { level, fields, count, data in
                if level.rawValue & (1 << 3) != 0 { CriticalLog.logged += 1 }  // G_LOG_LEVEL_CRITICAL
                return g_log_writer_default(level, fields, count, data)
            }, nil, nil)
    }
}
