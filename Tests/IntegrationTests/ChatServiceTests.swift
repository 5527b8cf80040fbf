import Foundation
import ReferenceServer
import Testing

@testable import BuilderOSKit

/// Conversations, history and the outbox against the reference server (real sockets, real SQLite):
/// the wire's part. The outbox's rules are tested on fakes in BuilderOSKitTests/ChatServiceOutboxTests.
@MainActor
final class ChatServiceTests {
    /// This test's history files, removed with it.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-history-\(UUID().uuidString)")
    deinit { try? FileManager.default.removeItem(at: folder) }

    func temporaryHistory() throws -> HistoryStore {
        try HistoryStore(path: folder.appendingPathComponent("history-\(UUID().uuidString).sqlite3").path)
    }

    func session(_ server: RunningServer, history: HistoryStore, through address: ServerAddress? = nil) -> AppSession {
        var configuration = ChatConfiguration()
        configuration.reconnect = Backoff(base: 0.05, maximum: 0.2)
        return AppSession(
            server: address ?? server.address, apiKey: server.key, deviceID: "test-device", history: history,
            chatConfiguration: configuration)
    }

    /// Waits up to 20 s for a condition checked on the main actor.
    func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
        for _ in 0..<400 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return condition()
    }

    @Test func streamsAReplyIntoHistory() async throws {
        let server = try await RunningServer.start()
        let history = try temporaryHistory()
        let app = session(server, history: history)
        app.connection.connect()
        let conversation = app.chat.createConversation(agent: .jarvis)
        app.chat.send("hello history", in: conversation.id)
        #expect(await eventually { history.messages(in: conversation.id).last?.state == .complete })
        let messages = history.messages(in: conversation.id)
        try #require(messages.map(\.role) == [.user, .assistant])
        #expect(messages[0].state == .sent)
        #expect(messages[1].text.contains("You said: “hello history”") && !messages[1].text.contains("tts-summary"))
        #expect(app.chat.activityToday().repliesCompletedToday == 1)
        app.connection.disconnect()
        await server.stop()

        // A new session over the same file (an app restart) finds the conversation.
        let reopened = try HistoryStore(path: history.path)
        #expect(reopened.conversations().map(\.id) == [conversation.id])
        #expect(reopened.messages(in: conversation.id).map(\.text) == messages.map(\.text))
    }

    /// A server that closes the socket on a message: the message is kept, marked not delivered with a clear
    /// pill, and the user's Send Again delivers it once the server takes it.
    @Test func aMessageTheServerClosesOnIsKeptAndCanBeSentAgain() async throws {
        var faults = Faults()
        faults.dropBeforeReplyCount = ChatTurn.maxDeliveries
        let server = try await RunningServer.start(faults: faults)
        let history = try temporaryHistory()
        let app = session(server, history: history)
        app.connection.connect()
        let conversation = app.chat.createConversation(agent: .jarvis)
        app.chat.send("the message it chokes on", in: conversation.id)
        #expect(await eventually { history.messages(in: conversation.id).first?.state == .failed })
        let messages = history.messages(in: conversation.id)
        try #require(messages.map(\.role) == [.user, .status])
        #expect(messages[0].text == "the message it chokes on")
        #expect(messages[1].text == BuilderOSError.closedOnMessage(attempts: ChatTurn.maxDeliveries).userMessage)
        #expect(!app.chat.isBusy(conversation.id))

        app.chat.resend(messages[0])
        #expect(await eventually { history.messages(in: conversation.id).last?.state == .complete })
        #expect(history.messages(in: conversation.id).first?.state == .sent)
        #expect(history.messages(in: conversation.id).last?.text.contains("the message it chokes on") == true)
        app.connection.disconnect()
        await server.stop()
    }

    @Test func outboxDeliversInOrderExactlyOnceAfterTheServerRestarts() async throws {
        let first = try await RunningServer.start()
        let key = first.key
        let relay = try PortRelay(to: first.port)
        defer { relay.stop() }
        let history = try temporaryHistory()
        let app = session(first, history: history, through: try ServerAddress.parse(relay.url))
        app.connection.connect()
        #expect(await eventually { app.connection.snapshot.indicator == .connected })
        relay.route(to: nil)
        await first.stop()
        #expect(
            await eventually { app.connection.snapshot.indicator == .connecting },
            "socket \(app.connection.snapshot.socket), last failure \(String(describing: app.connection.snapshot.lastFailure))")

        let a = app.chat.createConversation(agent: .jarvis)
        let b = app.chat.createConversation(agent: .jarvis)
        app.chat.send("first", in: a.id)
        app.chat.send("second", in: b.id)
        app.chat.send("third", in: a.id)
        #expect(history.queued().map(\.text) == ["first", "second", "third"])

        let second = try await RunningServer.start(key: key)
        relay.route(to: second.port)
        #expect(
            await eventually { history.queued().isEmpty && !app.chat.isBusy(a.id) && !app.chat.isBusy(b.id) },
            "socket \(app.connection.snapshot.socket), last failure \(String(describing: app.connection.snapshot.lastFailure))")
        #expect(second.state.messageCount(sessionID: a.sessionID(deviceID: "test-device")) == 2)
        #expect(second.state.messageCount(sessionID: b.sessionID(deviceID: "test-device")) == 1)
        let replies = history.messages(in: a.id).filter { $0.role == .assistant }
        // A failed count ends the test here: indexing past the replies would end the whole test process.
        try #require(replies.count == 2 && replies.allSatisfy { $0.state == .complete })
        #expect(replies[0].text.contains("“first”") && replies[1].text.contains("“third”"))
        app.connection.disconnect()
        await second.stop()
    }

    @Test func dropMidReplyKeepsThePartialReply() async throws {
        var faults = Faults()
        faults.dropMidStream = true
        let server = try await RunningServer.start(faults: faults)
        let history = try temporaryHistory()
        let app = session(server, history: history)
        app.connection.connect()
        let c = app.chat.createConversation(agent: .jarvis)
        app.chat.send("partial please", in: c.id)
        #expect(await eventually { history.messages(in: c.id).last?.state == .interrupted })
        let reply = try #require(history.messages(in: c.id).last)
        #expect(!reply.text.isEmpty)
        #expect(server.state.messageCount(sessionID: c.sessionID(deviceID: "test-device")) == 1)
        app.connection.disconnect()
        await server.stop()
    }
    // Offline writing, Connect, rename, delete and drafts: BuilderOSKitTests/ChatServiceOutboxTests, on fakes.
}

/// Network awareness: offline pauses every attempt and says so; back online reconnects at once.
@MainActor
struct OfflineTests {
    @Test func offlinePausesRetriesAndOnlineReconnectsAtOnce() async throws {
        let server = try await RunningServer.start()
        var configuration = ChatConfiguration()
        configuration.reconnect = Backoff(base: 600, maximum: 600)  // a retry would take 300–600 s
        configuration.authenticationTimeout = 100  // a starved test must not turn a slow handshake into a retry
        let connection = ConnectionController(server: server.address, key: SessionKey(server.key), chatConfiguration: configuration)
        var states: [ConnectionIndicator] = []
        final class Owner {}
        let owner = Owner()
        connection.changes.add(owner: owner) { states.append($0.indicator) }
        connection.networkChanged(available: false)
        connection.connect()
        try await Task.sleep(nanoseconds: 600_000_000)
        #expect(connection.snapshot.stateText == "Offline" && connection.snapshot.indicator == .disconnected)
        #expect(connection.snapshot.help?.contains("offline") == true)
        #expect(!states.contains(.connected), "no connection while offline")
        connection.networkChanged(available: true)
        // The backoff would wait at least 300 s: connected within the 120 s allowed here, it came from the network
        // coming back. (The bound is generous because a loaded CI machine can starve this test for many seconds.)
        let deadline = ContinuousClock.now + .seconds(120)
        while connection.snapshot.indicator != .connected && ContinuousClock.now < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(connection.snapshot.indicator == .connected, "reconnected when the network came back, not after the backoff; states: \(states)")
        connection.powerSaverChanged(enabled: true)
        #expect(connection.pollInterval == 120 && connection.snapshot.powerSaver)
        connection.disconnect()
        await server.stop()
    }
}
