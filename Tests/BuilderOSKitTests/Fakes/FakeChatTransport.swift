import Foundation

@testable import BuilderOSKit

/// FAKE of one agent's chat socket (the real one is `ChatClient`, tested over loopback in
/// IntegrationTests). It records what the core asks of it (`nextCall`), and the test plays the
/// server's part: connect, take the message, reply, drop. Turns run on the real `ChatTurn`, so
/// resends and "not delivered" follow the same rules as on the wire.
actor FakeChatTransport: ChatTransport {
    enum Call: Sendable, Equatable {
        case start, shutdown, reconnectNow, stopTurn
        case paused(Bool)
        /// A turn began with this text.
        case send(String)
    }

    nonisolated let events: AsyncStream<ChatEvent>
    private let eventSink: AsyncStream<ChatEvent>.Continuation
    private var calls = Recording<Call>()
    private(set) var turn: ChatTurn?
    private var connected = false

    init() {
        (events, eventSink) = AsyncStream.makeStream(of: ChatEvent.self)
    }

    /// The first call after the last one returned that matches; waits for it if need be.
    func nextCall(where match: @escaping @Sendable (Call) -> Bool = { _ in true }) async -> Call {
        if let found = calls.take(where: match) { return found }
        return await withCheckedContinuation { calls.wait(for: match, $0) }
    }

    /// Every call so far.
    var allCalls: [Call] { calls.all }

    // MARK: ChatTransport

    func start() { record(.start) }

    func shutdown() {
        record(.shutdown)
        endTurn { $0.stop() }
        set(connected: false, .disconnected)
        eventSink.finish()
    }

    func reconnectNow() { record(.reconnectNow) }
    func setPaused(_ paused: Bool) { record(.paused(paused)) }

    func send(_ message: OutgoingChatMessage) -> ChatTurn.ID? {
        guard !message.content.isEmpty, turn.map(\.isFinished) ?? true else { return nil }
        turn = ChatTurn(message: message)
        record(.send(message.content))
        if connected { transmit() }
        return turn?.id
    }

    func stopTurn() {
        record(.stopTurn)
        endTurn { $0.stop() }
    }

    // MARK: The server's part

    /// The socket authenticated: a waiting turn goes out.
    func connect() {
        set(connected: true, .connected)
        transmit()
    }

    /// The connection dropped (the real client then waits and reconnects).
    func drop() {
        if var current = turn, !current.isFinished {
            let resend = current.connectionDropped()
            turn = current
            if !resend { eventSink.yield(.finished(current)) }
        }
        set(connected: false, .waitingToReconnect(after: .connectionLost, delay: 1))
    }

    func reply(_ chunk: String) {
        guard let id = turn?.id else { return }
        let visible = turn!.receive(chunk: chunk)
        if !visible.isEmpty { eventSink.yield(.delta(turn: id, text: visible)) }
    }

    func complete() {
        endTurn { turn in
            let tail = turn.complete()
            if !tail.isEmpty { eventSink.yield(.delta(turn: turn.id, text: tail)) }
        }
    }

    func fail(_ text: String) { endTurn { $0.fail(text) } }

    // MARK: Plumbing

    private func record(_ call: Call) { calls.append(call) }

    private func transmit() {
        guard connected, var current = turn, current.phase == .queued else { return }
        let resent = current.sendCount > 0
        current.markSent()
        turn = current
        eventSink.yield(.sent(turn: current.id, resent: resent))
    }

    private func endTurn(_ change: (inout ChatTurn) -> Void) {
        guard var current = turn, !current.isFinished else { return }
        change(&current)
        turn = current
        eventSink.yield(.finished(current))
    }

    private func set(connected: Bool, _ state: ChatConnectionState) {
        self.connected = connected
        eventSink.yield(.connection(state))
    }
}
