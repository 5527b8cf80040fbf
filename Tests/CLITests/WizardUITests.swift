import Foundation
import Testing

/// The real setup wizard in a real GTK process under Xvfb (`desktop-ui-checks`), against
/// `builderos-server` on loopback and the session's real keyring. Every screen is saved in light
/// and dark to `.build/ui-artefacts/` for people to look at; the checks assert what is on screen.
@Suite(.serialized)
struct WizardUITests {
    static let artefacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/ui-artefacts")

    /// Runs one scenario; returns its output after checking that every check passed.
    @discardableResult
    func run(_ scenario: String, server: String, keyFile: URL, sandbox: CLISandbox,
             environment: [String: String] = [:]) throws -> String {
        // A hang becomes a failure (timeout), and display numbers from 120 up never race with
        // gtkkit-checks' (from 80) when both suites run at once.
        let result = try sandbox.run(["120", "/usr/bin/xvfb-run", "-a", "-n", "120", Binaries.path("desktop-ui-checks"), "--scenario", scenario, "--server", server,
                                      "--key-file", keyFile.path, "--out", Self.artefacts.path],
                                     environment: ["GSK_RENDERER": "cairo"].merging(environment) { $1 }, executable: "/usr/bin/timeout")
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(result.status == 0, "\(scenario): \(failures.joined(separator: "\n"))\n\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains(" passed, 0 failed"), "\(scenario)")
        return result.stdout
    }

    func screenshotsExist(_ scenario: String, _ screens: [String]) {
        for screen in screens {
            for theme in ["light", "dark"] {
                let file = Self.artefacts.appendingPathComponent("\(scenario)-\(screen)-\(theme).png")
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                #expect(size > 10_000, "\(file.lastPathComponent) was saved")
            }
        }
    }

    @Test func happyPathThenReturningThenSignOut() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let output = try run("happy-path", server: server.url, keyFile: server.keyFile, sandbox: sandbox)
        #expect(output.contains("PASS happy-path: the key is in the Secret Service"))
        screenshotsExist("happy-path", ["1-welcome", "2-server", "3-key", "4-test", "5-done", "6-main"])
        // Same configuration and keyring: the second start skips the wizard; then sign out.
        try run("returning", server: server.url, keyFile: server.keyFile, sandbox: sandbox)
        screenshotsExist("returning", ["preferences"])
    }

    @Test func malformedAddressesAndLeavingEarly() throws {
        let sandbox = try CLISandbox()
        let keyFile = sandbox.root.appendingPathComponent("key")
        try Data("unused".utf8).write(to: keyFile)
        try run("malformed-url", server: "", keyFile: keyFile, sandbox: sandbox)
        screenshotsExist("malformed-url", ["server-invalid", "server-http-warning", "http-consent", "leave-setup"])
    }

    @Test func unreachableServer() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        try run("unreachable", server: "http://127.0.0.1:9", keyFile: server.keyFile, sandbox: sandbox)
        screenshotsExist("unreachable", ["4-test-failed"])
    }

    @Test func wrongKey() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let wrong = sandbox.root.appendingPathComponent("wrong-key")
        try Data("not-the-key".utf8).write(to: wrong)
        try run("wrong-key", server: server.url, keyFile: wrong, sandbox: sandbox)
        screenshotsExist("wrong-key", ["4-test-failed"])
    }

    @Test func systemServerAbsentPassesWithANote() throws {
        let server = try ServerProcess(arguments: ["--no-system-routes"])
        defer { server.stop() }
        let sandbox = try CLISandbox()
        try run("system-absent", server: server.url, keyFile: server.keyFile, sandbox: sandbox)
        screenshotsExist("system-absent", ["4-test-note"])
    }

    @Test func keyringUnavailableIsSaidPlainly() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        try run("keyring-unavailable", server: server.url, keyFile: server.keyFile, sandbox: sandbox,
                environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        screenshotsExist("keyring-unavailable", ["4-test-keyring"])
    }
}
