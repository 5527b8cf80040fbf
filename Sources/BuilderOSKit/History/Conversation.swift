import Foundation

/// One conversation with an agent. Its `sessionID` is stable for its whole life, so the server
/// groups its turns the way the iOS app's conversations are grouped.
public struct Conversation: Sendable, Equatable, Identifiable {
    public let id: UUID
    public let agent: ChatAgent
    public var title: String
    public let created: Date
    public var updated: Date
    /// What the user had typed and not sent yet.
    public var draft: String

    public init(id: UUID = UUID(), agent: ChatAgent, title: String, created: Date = Date(), updated: Date? = nil, draft: String = "") {
        (self.id, self.agent, self.title, self.created, self.draft) = (id, agent, title, created, draft)
        self.updated = updated ?? created
    }

    public func sessionID(deviceID: String) -> String {
        OutgoingChatMessage.sessionID(deviceID: deviceID, agent: agent, conversation: id)
    }

    /// The title a new conversation gets, e.g. "Chat with Jarvis".
    public static func defaultTitle(for agent: ChatAgent) -> String {
        L("Chat with %@", agent.displayName)
    }

    /// A title made from the first message: its first line as it reads, without Markdown
    /// (`Hello from the **desktop**` becomes “Hello from the desktop”), at most 48 characters.
    public static func title(fromFirstMessage text: String) -> String {
        let firstLine = text.split(separator: "\n").first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? text
        let plain = MarkdownParser.parse(firstLine).first.map(plainText) ?? firstLine
        let title = plain.trimmingCharacters(in: .whitespacesAndNewlines)
        return String((title.isEmpty ? firstLine : title).prefix(48))
    }

    private static func plainText(_ block: MarkdownBlock) -> String {
        switch block {
        case .paragraph(let inlines), .heading(_, let inlines): return inlines.map(\.plainText).joined()
        case .code(_, let text): return text
        case .list(_, _, let items): return items.first?.first.map(plainText) ?? ""
        case .quote(let blocks): return blocks.first.map(plainText) ?? ""
        case .table(let header, _): return header.map { $0.map(\.plainText).joined() }.joined(separator: " ")
        case .rule: return ""
        }
    }
}
