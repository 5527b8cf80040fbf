import Foundation
import ProcessHarness
import Synchronization
import Testing

@testable import BuilderOSKit

/// The key's only home, against a real gnome-keyring over D-Bus. `meson-helpers/run-tests` starts
/// the daemon in a private session bus and sets BUILDEROS_TEST_KEYRING=1.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service that meson-helpers/run-tests starts"))
struct CredentialStoreTests {
    let store = CredentialStore()

    func uniqueServer() throws -> ServerAddress {
        try ServerAddress.parse("https://keyring-\(UUID().uuidString.prefix(8).lowercased()).example.com")
    }

    @Test func storeLookupClear() async throws {
        let server = try uniqueServer()
        let key = TestKeys.make()
        #expect(try await store.lookup(for: server) == nil)
        try await store.store(key: key, for: server)
        #expect(try await store.lookup(for: server) == key)
        try await store.clear(for: server)
        #expect(try await store.lookup(for: server) == nil)
        try await store.clear(for: server)  // clearing twice is fine
    }

    /// The CLI starts loading libcurl from `whenConnected`: it must run once, before the answer,
    /// and the lookup must still find the key afterwards.
    @Test func whenConnectedRunsOnceBeforeTheAnswer() async throws {
        let server = try uniqueServer()
        let key = TestKeys.make()
        try await store.store(key: key, for: server)
        let calls = Mutex(0)
        #expect(try await store.lookup(for: server, whenConnected: { calls.withLock { $0 += 1 } }) == key)
        #expect(calls.withLock { $0 } == 1)
        try await store.clear(for: server)
        #expect(try await store.lookup(for: server, whenConnected: { calls.withLock { $0 += 1 } }) == nil)
        #expect(calls.withLock { $0 } == 2)
    }

    /// A lookup begun before its server is handed over (`KeyLookup`; the CLI's, while it parses its
    /// arguments): the session opens first, the server comes later, and the answer is the same as a
    /// lookup's.
    @Test func aLookupBegunBeforeItsServerIsKnownFindsTheKey() async throws {
        let server = try uniqueServer()
        let key = TestKeys.make()
        try await store.store(key: key, for: server)
        let calls = Mutex(0)
        let lookup = KeyLookup(whenConnected: { calls.withLock { $0 += 1 } })
        #expect(try await lookup.key(for: server) == key)
        #expect(calls.withLock { $0 } == 1)
        // One lookup per instance: asking again is refused, not answered from a copy of the key.
        await #expect(throws: BuilderOSError.self) { try await lookup.key(for: server) }
        try await store.clear(for: server)
        #expect(try await KeyLookup().key(for: server) == nil)
        let cancelled = KeyLookup()
        cancelled.cancel()
        await #expect(throws: BuilderOSError.self) { try await cancelled.key(for: server) }
    }

    @Test func keysAreKeptPerServerAndReplaced() async throws {
        let a = try uniqueServer(), b = try uniqueServer()
        let (keyA, keyB, keyA2) = (TestKeys.make(), TestKeys.make(), TestKeys.make())
        try await store.store(key: keyA, for: a)
        try await store.store(key: keyB, for: b)
        try await store.store(key: keyA2, for: a)
        #expect(try await store.lookup(for: a) == keyA2)
        #expect(try await store.lookup(for: b) == keyB)
        try await store.clear(for: a)
        try await store.clear(for: b)
    }

    @Test func itemCarriesTheSchemaAndItsAttributes() async throws {
        let server = try uniqueServer()
        try await store.store(key: TestKeys.make(), for: server)
        defer { Task { try? await store.clear(for: server) } }
        // secret-tool prints the secret too: drop that line so no failure message can echo it.
        let listing = try await Shell.run("/usr/bin/secret-tool", ["search", "--all", "server", server.baseURL])
            .split(separator: "\n").filter { !$0.hasPrefix("secret = ") }.joined(separator: "\n")
        #expect(listing.contains("schema = app.builderos.Desktop.ApiKey"))
        #expect(listing.contains("attribute.version = 1"))
        #expect(listing.contains("attribute.server = \(server.baseURL)"))
    }
}

/// Runs a helper program and returns its standard output.
enum Shell {
    static func run(_ path: String, _ arguments: [String]) async throws -> String {
        try await offThePool { try runBlocking(path, arguments) }
    }

    /// `directory`: the process's working directory (never the test process's own: tests run in parallel, and
    /// changing it for one changes it for all).
    static func runBlocking(_ path: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
