import Foundation
import ProcessHarness
import Testing

/// What the desktop tells the app through GIO's monitors, from the real services (both need root):
/// the network coming and going in a network namespace of its own
/// (`meson-helpers/with-private-network`, with a bus, a keyring and a display started inside it:
/// without a default route, a server on this computer's network is set up, connects and reconnects;
/// one beyond the router is Offline with no attempts made, its outbox holding a message, everything
/// connecting at once when the route comes back; the same in the background), and the power mode
/// switched through power-profiles-daemon (`meson-helpers/with-power-profiles`).
@Suite(.serialized)
struct SystemMonitorsUITests {
    @Test(.enabled(if: getuid() == 0, "needs a network namespace of its own (root)"), arguments: Display.allCases)
    func offlineThenOnline(on display: Display) async throws {
        let sandbox = try CLISandbox()
        // Any port: nothing else listens in a network of its own.
        let port = 8080
        let keyFile = sandbox.root.appendingPathComponent("api-key")
        try Data((UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() + "\n").utf8).write(to: keyFile)
        let log = sandbox.root.appendingPathComponent("messages.jsonl")
        let helpers = UIScenario.source.appendingPathComponent("meson-helpers")
        try await UIScenario.run(
            "SystemMonitorsScenario.offline", server: "http://10.77.0.1:\(port)", keyFile: keyFile, sandbox: sandbox, display: display,
            options: [
                "port": String(port), "server-binary": Binaries.path("builderos-server"), "key-file": keyFile.path, "message-log": log.path,
            ],
            wrapper: [helpers.appendingPathComponent("with-private-network").path, helpers.appendingPathComponent("with-test-keyring").path])
        UIScenario.screenshotsExist("SystemMonitorsScenario.offline", ["offline"], on: display)
    }

    @Test(
        .enabled(if: getuid() == 0, "needs a mount namespace of its own (root)"),
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/libexec/power-profiles-daemon"),
            "needs power-profiles-daemon (meson-helpers/install-deps leaves it out where TLP is installed)"),
        arguments: Display.allCases)
    func powerSaverFollowsTheDesktop(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        try await UIScenario.run(
            "SystemMonitorsScenario.powerSaver", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            wrapper: [UIScenario.source.appendingPathComponent("meson-helpers/with-power-profiles").path])
    }
}
