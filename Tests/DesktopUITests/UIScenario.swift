import Foundation
import ProcessHarness
import Testing

/// Runs one `desktop-ui-checks` scenario in a real GTK process under Xvfb and checks its verdicts.
enum UIScenario {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let artefacts = source.appendingPathComponent(".build/ui-artefacts")

    /// Runs one scenario; returns its output after checking that every check passed.
    @discardableResult
    static func run(
        _ scenario: String, server: String, keyFile: URL, sandbox: CLISandbox,
        environment: [String: String] = [:], options: [String: String] = [:], wrapper: [String] = []
    ) async throws -> String {
        // A hang becomes a failure (timeout), and display numbers from 120 up never race with
        // gtkkit-checks' (from 80) when both suites run at once.
        // `wrapper` (a command and its arguments) runs the whole in another setting, e.g. a private mount namespace.
        // A hang leaves every thread's stack in the artefacts folder and the main thread's in the failure.
        let timeout = source.appendingPathComponent("meson-helpers/timeout-with-stacks").path
        let command =
            (wrapper.isEmpty ? [] : Array(wrapper.dropFirst()) + [timeout])
            + [
                "120", "/usr/bin/xvfb-run", "-a", "-n", "120", Binaries.path("desktop-ui-checks"), "--scenario", scenario, "--server", server,
                "--key-file", keyFile.path, "--out", artefacts.path,
            ]
            + options.sorted { $0.key < $1.key }.flatMap { ["--\($0.key)", $0.value] }
        let result = try await sandbox.run(
            command, environment: ["GSK_RENDERER": "cairo", "HANG_DIR": artefacts.path].merging(environment) { $1 },
            executable: wrapper.first ?? timeout)
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(result.status == 0, "\(scenario): \(failures.joined(separator: "\n"))\n\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains(" passed, 0 failed"), "\(scenario)")
        return result.stdout
    }

    static func screenshotsExist(_ scenario: String, _ screens: [String]) {
        for screen in screens {
            for theme in ["light", "dark"] {
                let file = artefacts.appendingPathComponent("\(scenario)-\(screen)-\(theme).png")
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                #expect(size > 10_000, "\(file.lastPathComponent) was saved")
            }
        }
    }

}
