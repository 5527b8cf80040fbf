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
        String(format: L("Chat with %@"), agent.displayName)
    }
}
