import Foundation

/// What the session needs of one agent's chat socket. `ChatClient` is the real one (WebSocket,
/// authentication, ping, reconnect with backoff); the core's tests drive a fake through the same
/// calls, so the outbox and the connection state machine are tested without sockets.
public protocol ChatTransport: Sendable {
    /// Everything that happens on the socket, in order; ends after `shutdown()`.
    var events: AsyncStream<ChatEvent> { get }
    /// Connects and stays connected until shut down.
    func start() async
    /// Stops for good: a turn in flight ends as stopped, then `events` ends.
    func shutdown() async
    /// Skips the current backoff wait.
    func reconnectNow() async
    /// While paused (offline) no connection attempts are made.
    func setPaused(_ paused: Bool) async
    /// Starts a turn; nil while another turn is in flight.
    func send(_ message: OutgoingChatMessage) async -> ChatTurn.ID?
    /// Stops waiting for the current turn's reply.
    func stopTurn() async
}

extension ChatClient: ChatTransport {}
