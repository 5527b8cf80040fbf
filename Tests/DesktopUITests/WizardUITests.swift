import Foundation
import ProcessHarness
import Testing
import ToolSupport

/// The real setup wizard in a real GTK process under Xvfb (`desktop-ui-checks`), against
/// `builderos-server` on loopback and the session's real keyring. Every screen is saved in light
/// and dark to `.build/ui-artefacts/` for people to look at; the checks assert what is on screen.
@Suite(.serialized)
struct WizardUITests {
    @Test(arguments: Display.allCases) func happyPathThenReturningThenSignOut(on display: Display) async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let output = try await UIScenario.run(
            "WizardScenarios.happyPath", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        #expect(output.contains("PASS WizardScenarios.happyPath: the key is in the Secret Service"))
        UIScenario.screenshotsExist("WizardScenarios.happyPath", ["1-welcome", "2-server", "3-key", "4-test", "5-done", "6-main"], on: display)
        // Same configuration and keyring: the second start skips the wizard; then sign out.
        try await UIScenario.run("WizardScenarios.returning", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("WizardScenarios.returning", ["preferences"], on: display)
    }

    /// LANGUAGE=de: the wizard and the main window speak German (screenshots `wizard-german-*`); the header, with
    /// the longest page names, fits the design's minimum width (`HeaderChecks`).
    @Test(arguments: Display.allCases) func germanWizard(on display: Display) async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        try await UIScenario.run(
            "GermanScenario.wizard", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"])
        UIScenario.screenshotsExist(
            "GermanScenario.wizard", ["1-welcome", "2-server", "3-key", "4-test", "5-done", "6-main", "7-header-narrow"], on: display)
    }

    /// A self-signed certificate: the test says why and offers "Trust a Certificate Authority…"; trusted, the handshake
    /// passes. The peer is `openssl s_server` on loopback with a certificate made for 127.0.0.1.
    @Test func anUntrustedCertificateCanBeTrustedForItsServer() async throws {
        let sandbox = try CLISandbox()
        let folder = sandbox.root.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (certificate, key) = (folder.appendingPathComponent("cert.pem"), folder.appendingPathComponent("key.pem"))
        let made = try await sandbox.run(
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-keyout", key.path, "-out", certificate.path,
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ], executable: "/usr/bin/openssl")
        #expect(made.status == 0, "\(made.stderr)")
        // A port no server started meanwhile is handed (a random one collided at times).
        let port = Loopback.closedPort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate.path, "-key", key.path, "-www", "-quiet"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        // The wizard connects within a second of its start: under load s_server was not listening yet
        // ("The server refused the connection").
        for _ in 0..<200 where server.isRunning && !Loopback.accepts(port: port) { usleep(25_000) }
        let keyFile = sandbox.root.appendingPathComponent("key")
        try Data("not-a-builderos-server-key".utf8).write(to: keyFile)
        try await UIScenario.run(
            "WizardScenarios.untrustedCertificate", server: "https://127.0.0.1:\(port)", keyFile: keyFile, sandbox: sandbox, display: .x11,
            options: ["authority": certificate.path])
        UIScenario.screenshotsExist("WizardScenarios.untrustedCertificate", ["untrusted"], on: .x11)
    }

    @Test(arguments: Display.allCases) func malformedAddressesAndLeavingEarly(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let keyFile = sandbox.root.appendingPathComponent("key")
        try Data("unused".utf8).write(to: keyFile)
        try await UIScenario.run("WizardScenarios.malformedAddress", server: "", keyFile: keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist(
            "WizardScenarios.malformedAddress", ["server-invalid", "server-http-warning", "http-consent", "leave-setup"], on: display)
    }

    @Test(arguments: Display.allCases) func unreachableServer(on display: Display) async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        try await UIScenario.run(
            "WizardScenarios.unreachable", server: "http://127.0.0.1:9", keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("WizardScenarios.unreachable", ["4-test-failed"], on: display)
    }

    @Test(arguments: Display.allCases) func wrongKey(on display: Display) async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let wrong = sandbox.root.appendingPathComponent("wrong-key")
        try Data("not-the-key".utf8).write(to: wrong)
        try await UIScenario.run("WizardScenarios.wrongKey", server: server.url, keyFile: wrong, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("WizardScenarios.wrongKey", ["4-test-failed"], on: display)
    }

    @Test(arguments: Display.allCases) func systemServerAbsentPassesWithANote(on display: Display) async throws {
        let server = try ServerProcess(arguments: ["--no-system-routes"])
        defer { server.stop() }
        let sandbox = try CLISandbox()
        try await UIScenario.run("WizardScenarios.systemAbsent", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("WizardScenarios.systemAbsent", ["4-test-note"], on: display)
    }

    @Test(arguments: Display.allCases) func keyringUnavailableIsSaidPlainly(on display: Display) async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        try await UIScenario.run(
            "WizardScenarios.keyringUnavailable", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        UIScenario.screenshotsExist("WizardScenarios.keyringUnavailable", ["4-test-keyring"], on: display)
    }
}
