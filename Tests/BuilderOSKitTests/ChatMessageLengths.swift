import Foundation

@testable import BuilderOSKit

extension ChatMessage {
    /// Complete replies in one conversation whose texts are `lengths` characters long (the loading
    /// rules go by a message's length only).
    static func replies(lengths: [Int], in conversation: UUID = UUID()) -> [ChatMessage] {
        lengths.map { ChatMessage(conversation: conversation, role: .assistant, text: String(repeating: "x", count: $0), state: .complete) }
    }
}
