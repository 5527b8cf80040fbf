import Foundation

/// One row of a conversation as stored and shown: the user's message, the assistant's reply, or
/// a centred status pill (e.g. "Jarvis could not answer").
public struct ChatMessage: Sendable, Equatable, Identifiable {
    public enum Role: String, Sendable, Codable {
        case user, assistant, status
    }

    public enum State: String, Sendable, Codable {
        /// A user message not yet handed to a socket: the outbox.
        case queued
        /// A user message handed to the socket.
        case sent
        /// A reply still arriving.
        case streaming
        case complete
        case failed
        /// The connection dropped mid-reply; the partial text is kept.
        case interrupted
        /// The user pressed Stop.
        case stopped
    }

    /// Storage order within the whole history (grows with every message).
    public var sequence: Int64
    public let id: UUID
    public let conversation: UUID
    public let role: Role
    public var text: String
    public var state: State
    public let created: Date
    public var attachments: [ChatAttachment]

    public init(
        sequence: Int64 = 0, id: UUID = UUID(), conversation: UUID, role: Role, text: String,
        state: State, created: Date = Date(), attachments: [ChatAttachment] = []
    ) {
        (self.sequence, self.id, self.conversation, self.role, self.text) = (sequence, id, conversation, role, text)
        (self.state, self.created, self.attachments) = (state, created, attachments)
    }
}

/// What the Connection page's "Recent activity" shows, counted from local history.
public struct ChatActivity: Sendable, Equatable {
    public var lastMessage: Date?
    public var messagesToday: Int
    public var repliesCompletedToday: Int
}
