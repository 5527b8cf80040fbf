import Foundation

/// What the chat service tells the views. Deltas are not coalesced here: views coalesce per frame.
public enum ChatServiceEvent: Sendable, Equatable {
    case conversationsChanged
    case messageAdded(ChatMessage)
    /// A message's text or state changed (a reply grew, a queued message was sent).
    case messageChanged(ChatMessage)
    /// A conversation's turn started, got its first chunk, or ended.
    case turnChanged(conversation: UUID)
}
