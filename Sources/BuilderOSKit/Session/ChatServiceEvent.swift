import Foundation

/// What the chat service tells the views. Deltas are not coalesced here: views coalesce per frame.
public enum ChatServiceEvent: Sendable, Equatable {
    case conversationsChanged
    case messageAdded(ChatMessage)
    /// A message's text or state changed (a reply grew, a queued message was sent).
    case messageChanged(ChatMessage)
    /// A streaming reply got more text. Deliberately without the text: views read it with
    /// `ChatService.liveMessage(_:)` once per frame, and nothing holds a copy between chunks.
    case replyGrew(message: UUID, conversation: UUID)
    /// A conversation's turn started, got its first chunk, or ended.
    case turnChanged(conversation: UUID)
    /// Messages were merged into a conversation (an import), possibly among those already there: a view showing
    /// it reads it again.
    case messagesReplaced(conversation: UUID)
}
