/// The chat socket's state, as every view of it (header dot, tray, pages) shows it.
public enum ChatConnectionState: Sendable, Equatable {
    case disconnected
    case connecting
    case authenticating
    case connected
    /// Dropped or failed to connect; trying again after `delay` seconds.
    case waitingToReconnect(after: BuilderOSError, delay: Double)
    /// Will not retry by itself (e.g. the key was rejected).
    case failed(BuilderOSError)
}

/// What a chat client reports to whoever shows the conversation.
public enum ChatEvent: Sendable, Equatable {
    case connection(ChatConnectionState)
    /// The server said `ready` (may come at any time, even mid-turn).
    case ready
    /// The message was handed to the socket (again, if `resent`).
    case sent(turn: ChatTurn.ID, resent: Bool)
    /// New visible text of the reply.
    case delta(turn: ChatTurn.ID, text: String)
    /// The turn ended; `turn.phase` says how (completed, failed, interrupted, stopped).
    case finished(ChatTurn)
}

public struct ChatConfiguration: Sendable {
    public var network = ClientConfiguration()
    /// WebSocket ping interval (the contract asks for 25–30 s).
    public var pingInterval: UInt32 = 25
    /// How long to wait for `authenticated` after sending the key.
    public var authenticationTimeout: Double = 10
    public var reconnect: Backoff = .reconnect
    /// A reply larger than this ends its turn (what arrived is kept) and the socket is closed: a server
    /// that streams without end must not take the memory. Real replies are well under 1 MiB.
    public var maxReplyBytes: Int = 16 << 20
    /// The largest frame read: a reply's cap and room for its JSON envelope. A larger one is refused
    /// before it is read, and ends the turn as a reply over the cap.
    public var maxFrameBytes: Int { maxReplyBytes + (64 << 10) }
    /// A turn the server accepted fails after this long without a chunk (every chunk starts it again).
    public var replyDeadline: Double = 300
    /// A connection that ended while a message waited for its first chunk counts as good (the backoff starts
    /// over) only if it stayed up this long: a server that closes the socket on a message is retried with
    /// growing waits, not at once after every `authenticated`.
    public var stableConnection: Double = 10

    public init() {}
}
