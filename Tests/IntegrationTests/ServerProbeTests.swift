import Foundation
import Testing

@testable import BuilderOSKit

/// The light status request the switcher's and the tray's dots come from, each server asked with its own key from a
/// real gnome-keyring, over loopback.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service that meson-helpers/run-tests starts"),
    // Bounds the first test: waiting for every answer would take the silent server's whole timeout, longer than this.
    .timeLimit(.minutes(1)))
struct ServerProbeTests {
    let store = CredentialStore()

    /// A server that never answers holds up only its own dot: the server listed after it answers as soon as it has.
    @Test func aSilentServerHoldsUpOnlyItsOwnAnswer() async throws {
        let quick = try await RunningServer.start()
        let silent = try SilentServer()
        let silentAddress = try ServerAddress.parse("http://127.0.0.1:\(silent.port)")
        try await store.store(key: quick.key, for: quick.address)
        try await store.store(key: TestKeys.make(), for: silentAddress)
        let servers = [
            ServerProfile(address: silentAddress.baseURL, historyFile: "silent.sqlite3"),
            ServerProfile(address: quick.address.baseURL, historyFile: "quick.sqlite3"),
        ]
        var answers = ServerProbe.answers(servers, credentials: store, timeout: 120).makeAsyncIterator()
        let first = await answers.next()
        #expect(first?.id == servers[1].id)
        if case .online = first?.answer {} else { Issue.record("the quick server answers online: \(String(describing: first?.answer))") }
        try await store.clear(for: quick.address)
        try await store.clear(for: silentAddress)
        silent.stop()
        await quick.stop()
    }

    /// A server this computer has no route to is asked nothing and answers offline; the others are asked as usual.
    @Test func aServerWithoutARouteIsAskedNothing() async throws {
        let routed = try await RunningServer.start()
        let cut = try await RunningServer.start()
        try await store.store(key: routed.key, for: routed.address)
        try await store.store(key: cut.key, for: cut.address)
        let servers = [routed, cut].map { ServerProfile(address: $0.address.baseURL, historyFile: "\($0.port).sqlite3") }
        let cutAddress = cut.address
        var answers: [String: ServerReachability] = [:]
        for await (id, answer) in ServerProbe.answers(servers, credentials: store, routeExists: { $0 != cutAddress }) { answers[id] = answer }
        #expect(answers[servers[1].id] == .unreachable(.networkUnreachable))
        #expect(cut.state.requestCount(path: "/api/status") == 0)
        if case .online = answers[servers[0].id] {
        } else {
            Issue.record("the routed server answers online: \(String(describing: answers[servers[0].id]))")
        }
        #expect(routed.state.requestCount(path: "/api/status") == 1)
        try await store.clear(for: routed.address)
        try await store.clear(for: cutAddress)
        await routed.stop()
        await cut.stop()
    }
}
