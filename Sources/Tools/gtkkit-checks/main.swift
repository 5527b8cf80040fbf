// Checks of the GtkKit layer in a real GTK process under a display (Xvfb in tests). It owns the
// main thread and runs the GLib loop as the app will; in-process test runners cannot, because
// libdispatch's main queue is already taken by them. Prints "N passed, M failed"; exit 1 on failure.
import BuilderOSKit
import CGtk
import Foundation
import GtkKit

// As the app does: GTK's GL driver loads beside the start (checked in GLDriverPreloadChecks).
GLDriverPreload.start()
MainActor.assumeIsolated {
    gtk_init()
    MainLoopBridge.install()
    let checks = CommandLine.arguments.contains("--measure") ? Checks.measurements : Checks.all
    CriticalLog.count()
    let results = checks.map { check -> Bool in
        let criticalsBefore = CriticalLog.logged
        var outcome = check.run()
        // A check that made GLib or GTK log a critical (a programming error) fails, whatever it saw.
        let criticals = CriticalLog.logged - criticalsBefore
        if criticals > 0 { outcome = Outcome(passed: false, detail: outcome.detail + "; \(criticals) GLib critical(s) logged") }
        // Unbuffered, so a crash cannot swallow the lines before it.
        FileHandle.standardOutput.write(
            Data("\(outcome.passed ? "PASS" : "FAIL") \(check.name)\(outcome.detail.isEmpty ? "" : ": \(outcome.detail)")\n".utf8))
        return outcome.passed
    }
    let failed = results.filter { !$0 }.count
    FileHandle.standardOutput.write(Data("\(results.count - failed) passed, \(failed) failed\n".utf8))
    exit(failed == 0 ? 0 : 1)
}
