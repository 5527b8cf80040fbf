import Foundation
import ProcessHarness
import Testing

/// The displays GNOME users have: X11 (Xvfb here) and Wayland (GNOME's own compositor, mutter, run
/// headless by meson-helpers/with-wayland). Every UI test runs on both.
enum Display: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case x11, wayland

    var testDescription: String { rawValue }

    /// The command that runs a program as the client of a display of its own.
    var launcher: [String] {
        switch self {
        // Display numbers from 120 up never race with gtkkit-checks' (from 80) when both suites run at once.
        case .x11: ["/usr/bin/xvfb-run", "-a", "-n", "120"]
        case .wayland: [UIScenario.source.appendingPathComponent("meson-helpers/with-wayland").path]
        }
    }
}

/// Runs one `desktop-ui-checks` scenario in a real GTK process on a display of its own and checks its verdicts.
enum UIScenario {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let artefacts = source.appendingPathComponent(".build/ui-artefacts")

    /// Screenshots of each display in a folder of their own.
    static func artefacts(_ display: Display) -> URL {
        display == .x11 ? artefacts : artefacts.appendingPathComponent(display.rawValue)
    }

    /// Runs one scenario; returns its output after checking that every check passed.
    @discardableResult
    static func run(
        _ scenario: String, server: String, keyFile: URL, sandbox: CLISandbox, display: Display,
        environment: [String: String] = [:], options: [String: String] = [:], wrapper: [String] = []
    ) async throws -> String {
        // A hang becomes a failure (timeout).
        // `wrapper` (a command and its arguments) runs the whole in another setting, e.g. a private mount namespace.
        // A hang leaves every thread's stack in the artefacts folder and the main thread's in the failure.
        let timeout = source.appendingPathComponent("meson-helpers/timeout-with-stacks").path
        let command =
            (wrapper.isEmpty ? [] : Array(wrapper.dropFirst()) + [timeout])
            + ["120"] + display.launcher
            + [
                Binaries.path("desktop-ui-checks"), "--scenario", scenario, "--server", server, "--key-file", keyFile.path,
                "--out", artefacts(display).path,
            ]
            + options.sorted { $0.key < $1.key }.flatMap { ["--\($0.key)", $0.value] }
        let result = try await sandbox.run(
            command, environment: ["GSK_RENDERER": "cairo", "HANG_DIR": artefacts.path].merging(environment) { $1 },
            executable: wrapper.first ?? timeout)
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(result.status == 0, "\(scenario) on \(display.rawValue): \(failures.joined(separator: "\n"))\n\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains(" passed, 0 failed"), "\(scenario) on \(display.rawValue)")
        return result.stdout
    }

    /// `minimumBytes`: a window's picture is over 10 KB; a small dialog's may be less.
    static func screenshotsExist(_ scenario: String, _ screens: [String], on display: Display, minimumBytes: Int = 10_000) {
        for screen in screens {
            for theme in ["light", "dark"] {
                let file = artefacts(display).appendingPathComponent("\(scenario)-\(screen)-\(theme).png")
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                #expect(size > minimumBytes, "\(file.lastPathComponent) was saved")
            }
        }
    }

}
