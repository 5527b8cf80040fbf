import Foundation
import ProcessHarness
import Testing

/// The fast subset of the fault suite (meson-helpers/fault-suite runs 100 kill-and-restart rounds):
/// 3 rounds of the server killed mid-reply and restarted, plus every other fault once.
struct FaultSubsetTests {
    @Test func serverKilledMidReplySlowServerTunnelPagesHalfOpen() async throws {
        let result = try await CLISandbox().run(["--bin", Binaries.directory.path, "--rounds", "3"], executable: "builderos-faults")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("0 lost, 0 duplicated"), "\(result.stdout)")
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
    }

    /// In a D-Bus session and keyring of its own: killing the daemon must not disturb other tests.
    @Test func keyringDaemonKilledMidSession() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("meson-helpers/with-test-keyring").path
        let result = try await CLISandbox().run(
            [script, Binaries.path("builderos-faults"), "--bin", Binaries.directory.path, "--only", "keyring"],
            environment: ["BUILDEROS_IN_TEST_SESSION": ""], executable: "/usr/bin/env")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("PASS keyring-killed"), "\(result.stdout)")
    }
}
