import Foundation
import ReferenceServer
import Synchronization
import ToolSupport

@testable import BuilderOSKit

/// A reference server on a free loopback port for the length of one test.
final class RunningServer: Sendable {
    let state: ServerState
    let address: ServerAddress
    let key: String
    let uploads: URL
    private let task: Task<Void, any Error>

    private init(state: ServerState, address: ServerAddress, key: String, uploads: URL, task: Task<Void, any Error>) {
        (self.state, self.address, self.key, self.uploads, self.task) = (state, address, key, uploads, task)
    }

    /// Starts a server (on `port`, or a free one) and waits until it listens. A given port may
    /// still be held for a moment by the server just stopped on it: tried again for up to 10 s.
    static func start(port: Int = 0, key: String = TestKeys.make(), faults: Faults = Faults(), terminal: Bool = false) async throws -> RunningServer {
        for _ in 0..<100 {
            if let server = try await attempt(port: port, key: key, faults: faults, terminal: terminal) { return server }
            guard port != 0 else { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// One start; nil when the server could not listen (its task ended without a URL).
    private static func attempt(port: Int, key: String, faults: Faults, terminal: Bool) async throws -> RunningServer? {
        let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("bos-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let state = ServerState(apiKey: key, uploadDirectory: uploads)
        state.faults = faults
        // A shell without startup files: the tests must not depend on this machine's ~/.profile.
        if terminal { state.terminalCommand = TestShell.command }
        let server = ReferenceServer(state: state, port: port, terminalEnabled: terminal)
        let (urls, sink) = AsyncStream.makeStream(of: String.self)
        // If the server cannot listen, the stream ends and the caller tries again instead of
        // waiting for ever.
        let task = Task {
            defer { sink.finish() }
            try await server.run { url in sink.yield(url) }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else {
            try? FileManager.default.removeItem(at: uploads)
            return nil
        }
        return RunningServer(state: state, address: try ServerAddress.parse(url), key: key, uploads: uploads, task: task)
    }

    var port: Int { address.port ?? 0 }

    func client(key: String? = nil, configuration: ClientConfiguration = .init()) -> RESTClient {
        RESTClient(server: address, apiKey: key ?? self.key, configuration: configuration)
    }

    /// Stops listening and waits until the port is free again.
    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: uploads)
    }
}

enum TestShell {
    static let command = ["/bin/bash", "--noprofile", "--norc", "-i"]
}

/// Test keys carry a per-run marker so the leak audit after the run can search for them.
enum TestKeys {
    static let marker = ProcessInfo.processInfo.environment["BUILDEROS_TEST_MARKER"] ?? "bostest"

    static func make() -> String { "\(marker)-\(UUID().uuidString.lowercased())" }
}

/// Collects a chat client's events until a condition holds (or a generous deadline passes).
actor EventLog {
    private(set) var events: [ChatEvent] = []
    private var reader: Task<Void, Never>?

    init(_ client: ChatClient) {
        let stream = client.events
        Task { await self.follow(stream) }
    }

    private func follow(_ stream: AsyncStream<ChatEvent>) async {
        for await event in stream { events.append(event) }
    }

    /// Waits until `condition` is true of the events so far; false if it never is within `seconds`.
    func wait(seconds: Double = 20, until condition: @Sendable ([ChatEvent]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition(events) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(events)
    }

    var finishedTurns: [ChatTurn] { events.compactMap { if case .finished(let t) = $0 { t } else { nil } } }
    var deltas: String { events.compactMap { if case .delta(_, let t) = $0 { t } else { nil } }.joined() }
    var states: [ChatConnectionState] { events.compactMap { if case .connection(let s) = $0 { s } else { nil } } }
}
