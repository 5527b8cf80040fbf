import Foundation
import ReferenceServer
import Testing

@testable import BuilderOSKit

/// The chat protocol over a real WebSocket (libsoup) against the reference server.
struct ChatClientTests {
    static func expectedReply(_ text: String, agent: String) -> String {
        var acc = ReplyAccumulator()
        _ = acc.append(AssistantReply.text(for: text, agent: agent))
        _ = acc.finish()
        return acc.visible
    }

    func fastConfiguration() -> ChatConfiguration {
        var configuration = ChatConfiguration()
        configuration.reconnect = Backoff(base: 0.05, maximum: 0.2)
        configuration.network.connectTimeout = 5
        return configuration
    }

    func message(_ text: String, agent: ChatAgent = .jarvis, session: String = UUID().uuidString) -> OutgoingChatMessage {
        OutgoingChatMessage(content: text, sessionId: session, deviceId: "test-device", agent: agent)
    }

    func finished(_ log: EventLog) async -> Bool { await log.wait { $0.contains { if case .finished = $0 { true } else { false } } } }

    /// A server with `faults` and a started client for `agent`; both are stopped after `body`.
    func withChat(
        faults: Faults = Faults(), agent: ChatAgent = .jarvis, key: String? = nil, maxReplyBytes: Int? = nil,
        _ body: (RunningServer, ChatClient, EventLog) async throws -> Void
    ) async throws {
        let server = try await RunningServer.start(faults: faults)
        var configuration = fastConfiguration()
        if let maxReplyBytes { configuration.maxReplyBytes = maxReplyBytes }
        let client = ChatClient(server: server.address, apiKey: key ?? server.key, agent: agent, configuration: configuration)
        let log = EventLog(client)
        await client.start()
        do { try await body(server, client, log) } catch {
            await client.stop(); await server.stop(); throw error
        }
        await client.stop()
        await server.stop()
    }

    @Test(arguments: [ChatAgent.jarvis, .codex])
    func streamsACompleteReply(agent: ChatAgent) async throws {
        try await withChat(agent: agent) { server, client, log in
            let id = await client.send(message("hello there", agent: agent))
            #expect(id != nil)
            #expect(await finished(log))
            let turn = try #require(await log.finishedTurns.first)
            #expect(turn.phase == .completed)
            let expected = Self.expectedReply("hello there", agent: agent.serverName)
            #expect(await log.deltas == expected)
            #expect(turn.reply.visible == expected)
            #expect(!expected.contains("tts-summary") && expected.contains("You said: “hello there”") && expected.contains("```swift"))
            if agent == .codex {
                // Codex answers in 100-character slices.
                let sent = AssistantReply.text(for: "hello there", agent: agent.serverName)
                #expect(turn.reply.chunkCount == Int((Double(sent.count) / 100).rounded(.up)))
            } else {
                #expect(turn.reply.chunkCount > 20)
            }
            #expect(await log.events.contains(.ready))
        }
    }

    @Test func oneTurnAtATime() async throws {
        try await withChat() { _, client, _ in
            #expect(await client.send(message("  \n ")) == nil)  // nothing left after trimming
            #expect(await client.send(message("first")) != nil)
            #expect(await client.send(message("second")) == nil)  // one turn at a time
        }
    }

    @Test func wrongKeyFailsWithoutRetrying() async throws {
        try await withChat(key: "wrong") { server, client, log in
            #expect(await log.wait { $0.contains(.connection(.failed(.unauthorized))) })
            try await Task.sleep(for: .milliseconds(300))
            // A connect that timed out on a loaded machine may come before; none may follow the refusal.
            let states = await log.states
            let refused = try #require(states.firstIndex(of: .failed(.unauthorized)))
            #expect(!states[refused...].contains(.connecting), "\(states)")
        }
    }

    @Test func noKeyInTheKeyringFailsBeforeConnecting() async throws {
        let server = try await RunningServer.start()
        let client = ChatClient(
            server: server.address, key: SessionKey { () async throws(BuilderOSError) -> String? in nil },
            agent: .jarvis, configuration: fastConfiguration())
        let log = EventLog(client)
        await client.start()
        #expect(await log.wait { $0.contains(.connection(.failed(.notSignedIn))) })
        // Never authenticating: no socket was opened to send a key on. And no retry.
        #expect(await !log.states.contains(.authenticating))
        #expect(await log.states.filter { $0 == .connecting }.count == 1)
        #expect(server.state.requestCount(path: "/api/claude/ws") == 0)
        await client.stop()
        await server.stop()
    }

    @Test func lateReadyAndStreamFramesAreAccepted() async throws {
        var faults = Faults()
        faults.lateReady = true
        faults.chunkFrameType = "stream"
        try await withChat(faults: faults) { server, client, log in
            _ = await client.send(message("late"))
            #expect(await finished(log))
            #expect(await log.finishedTurns.first?.phase == .completed)
            #expect(await log.deltas == Self.expectedReply("late", agent: "claude"))
        }
    }

    @Test func errorFrameEndsTheTurn() async throws {
        var faults = Faults()
        faults.errorFrame = true
        try await withChat(faults: faults) { server, client, log in
            _ = await client.send(message("x"))
            #expect(await finished(log))
            #expect(await log.finishedTurns.first?.phase == .failed("The assistant backend is unavailable"))
        }
    }

    @Test func errorPrefixedMessageIsShownAsAnError() async throws {
        var faults = Faults()
        faults.errorMessage = true
        try await withChat(faults: faults, agent: .codex) { server, client, log in
            _ = await client.send(message("x", agent: .codex))
            #expect(await finished(log))
            #expect(await log.finishedTurns.first?.phase == .failed("Error: the assistant backend failed to answer"))
            #expect(await log.deltas.isEmpty)
        }
    }

    @Test func dropMidReplyKeepsThePartialAndDoesNotResend() async throws {
        var faults = Faults()
        faults.dropMidStream = true
        try await withChat(faults: faults) { server, client, log in
            let session = UUID().uuidString
            _ = await client.send(message("drop me", session: session))
            #expect(await finished(log))
            let turn = try #require(await log.finishedTurns.first)
            #expect(turn.phase == .interrupted)
            #expect(!turn.reply.visible.isEmpty && Self.expectedReply("drop me", agent: "claude").hasPrefix(turn.reply.visible))
            // It reconnects by itself, and the message reached the server exactly once.
            #expect(await log.wait { events in events.filter { $0 == .connection(.connected) }.count >= 2 })
            #expect(server.state.messageCount(sessionID: session) == 1)
        }
    }

    @Test func dropBeforeAnyChunkResendsExactlyOnce() async throws {
        var faults = Faults()
        faults.dropBeforeReplyCount = 1
        try await withChat(faults: faults) { server, client, log in
            let session = UUID().uuidString
            let id = try #require(await client.send(message("again", session: session)))
            #expect(await finished(log))
            #expect(await log.finishedTurns.first?.phase == .completed)
            #expect(await log.events.contains(.sent(turn: id, resent: true)))
            #expect(server.state.messageCount(sessionID: session) == 2)  // the lost one and the re-send
            #expect(await log.deltas == Self.expectedReply("again", agent: "claude"))
        }
    }

    @Test func queuedWhileTheServerIsDownThenDeliveredAfterRestart() async throws {
        let first = try await RunningServer.start()
        let key = first.key
        let relay = try PortRelay(to: first.port)
        defer { relay.stop() }
        let client = ChatClient(server: try ServerAddress.parse(relay.url), apiKey: key, agent: .jarvis, configuration: fastConfiguration())
        let log = EventLog(client)
        await client.start()
        #expect(await log.wait { $0.contains(.connection(.connected)) })
        relay.route(to: nil)
        await first.stop()
        #expect(await log.wait { $0.contains { if case .connection(.waitingToReconnect) = $0 { true } else { false } } })
        let session = UUID().uuidString
        _ = await client.send(message("while away", session: session))
        let second = try await RunningServer.start(key: key)
        relay.route(to: second.port)
        #expect(await finished(log))
        #expect(await log.finishedTurns.first?.phase == .completed)
        #expect(second.state.messageCount(sessionID: session) == 1)
        await client.stop()
        await second.stop()
    }

    @Test func tunnelPageOnUpgradeIsReportedAndRetried() async throws {
        let edge = try TunnelEdgeStub(status: 502)
        defer { edge.stop() }
        let address = try ServerAddress.parse("http://127.0.0.1:\(edge.port)")
        let client = ChatClient(server: address, apiKey: "k", agent: .jarvis, configuration: fastConfiguration())
        let log = EventLog(client)
        await client.start()
        let retried = await log.wait(seconds: 30) { events in
            events.filter { if case .connection(.waitingToReconnect(.tunnelError(502), _)) = $0 { true } else { false } }.count >= 2
        }
        let states = await log.states
        #expect(retried, "states: \(states)")
        await client.stop()
    }

    @Test func aSingleTenMegabyteChunkArrivesWhole() async throws {
        var faults = Faults()
        faults.giantChunkBytes = 10_000_000
        try await withChat(faults: faults) { _, client, log in
            _ = await client.send(message("big"))
            #expect(await log.wait(seconds: 60) { $0.contains { if case .finished = $0 { true } else { false } } })
            let turn = try #require(await log.finishedTurns.first)
            #expect(turn.phase == .completed)
            #expect(turn.reply.chunkCount == 1)
            #expect(turn.reply.visible.utf8.count == 10_000_000)
            #expect(turn.reply.visible == AssistantReply.giant(bytes: 10_000_000))
        }
    }

    /// A hostile server's single frame over the reply cap: refused from its header, before its payload
    /// is buffered; the turn ends as a reply over the cap and the message is not sent again.
    @Test func aFrameOverTheCapIsRefusedUnreadAndNotSentAgain() async throws {
        var faults = Faults()
        faults.giantChunkBytes = 3_000_000
        try await withChat(faults: faults, maxReplyBytes: 1_000_000) { _, client, log in
            _ = await client.send(message("big"))
            #expect(await log.wait(seconds: 60) { $0.contains { if case .finished = $0 { true } else { false } } })
            let turn = try #require(await log.finishedTurns.first)
            #expect(turn.phase == .failed(BuilderOSError.replyTooLarge(limitBytes: 1_000_000).userMessage), "\(turn.phase)")
            #expect(turn.reply.visible.isEmpty)
            try await Task.sleep(for: .milliseconds(500))
            #expect(await log.events.filter { if case .sent = $0 { true } else { false } }.count == 1, "sent once, never again")
        }
        // Unread: the socket itself ends on the frame's header ("too big"), no text of it delivered.
        let server = try await RunningServer.start(faults: faults)
        let channel = try await WebSocketChannel.connect(
            url: server.address.webSocketURL(path: ChatAgent.jarvis.socketPath), host: server.address.host,
            configuration: ClientConfiguration(), pingInterval: 0, maxFrameBytes: 1_000_000)
        channel.send(server.key)
        channel.send(message("big").json())
        var texts: [String] = []
        var closed: Int?
        // A socket that took the frame stays open: ended after a minute, the test fails rather than hangs.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            channel.abort()
        }
        defer { watchdog.cancel() }
        for await event in channel.events {
            if case .text(let text) = event { texts.append(text) }
            if case .closed(let code) = event { closed = code }
        }
        #expect(closed == WebSocketChannel.closedTooBig)
        #expect(texts.allSatisfy { $0.utf8.count < 1_000_000 }, "\(texts.map(\.utf8.count))")
        await server.stop()
    }

    @Test func stopTurnEndsWaiting() async throws {
        var faults = Faults()
        faults.responseDelayMilliseconds = 5000
        try await withChat(faults: faults) { server, client, log in
            _ = await client.send(message("slow"))
            #expect(await log.wait { $0.contains { if case .sent = $0 { true } else { false } } })
            await client.stopTurn()
            #expect(await finished(log))
            #expect(await log.finishedTurns.first?.phase == .stopped)
        }
    }
}
