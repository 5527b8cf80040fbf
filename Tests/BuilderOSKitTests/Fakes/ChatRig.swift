import Foundation

@testable import BuilderOSKit

/// A session over fakes: the real `ConnectionController` and `ChatService` over an in-memory
/// history, a fake REST API and one fake socket per agent (new ones on every Connect, as the real
/// controller makes new clients).
@MainActor
final class ChatRig {
    /// The sockets of the latest Connect, and how many were made in all.
    final class Sockets {
        var current: [ChatAgent: FakeChatTransport] = [:]
        var made = 0
    }

    let history: HistoryStore
    let api: FakeBuilderOSAPI
    let sockets = Sockets()
    let connection: ConnectionController
    let chat: ChatService
    let events: EventLog<ChatServiceEvent>
    static let deviceID = "test-device"

    init(history: HistoryStore = .inMemory(), api: FakeBuilderOSAPI = FakeBuilderOSAPI()) {
        self.history = history
        self.api = api
        let sockets = sockets
        connection = ConnectionController(server: api.server, api: api) { agent in
            let socket = FakeChatTransport()
            sockets.current[agent] = socket
            sockets.made += 1
            return socket
        }
        chat = ChatService(history: history, deviceID: Self.deviceID, connection: connection)
        events = EventLog(chat.changes)
    }

    func socket(_ agent: ChatAgent) -> FakeChatTransport { sockets.current[agent]! }

    /// Connect (with the agent's socket authenticated when `connected`), a new conversation with
    /// the agent, and `text` sent in it; returns once the socket took the message.
    func startTurn(_ text: String, with agent: ChatAgent = .jarvis, connected: Bool = true) async -> (
        conversation: Conversation, message: ChatMessage
    ) {
        connection.connect()
        if connected { await socket(agent).connect() }
        let conversation = chat.createConversation(agent: agent)
        let message = chat.send(text, in: conversation.id)!
        _ = await nextSent(by: agent)
        return (conversation, message)
    }

    /// Waits until the agent's socket is asked to send, and returns the text.
    func nextSent(by agent: ChatAgent) async -> String {
        let call = await socket(agent).nextCall { if case .send = $0 { true } else { false } }
        guard case .send(let text) = call else { return "" }
        return text
    }

    /// Waits until the message's stored state is announced.
    func waitFor(_ message: UUID, _ state: ChatMessage.State) async {
        _ = await events.next { event in
            switch event {
            case .messageChanged(let m), .messageAdded(let m): m.id == message && m.state == state
            default: false
            }
        }
    }

    /// Waits for a new message of this role in the conversation (a reply or a status pill).
    func nextAdded(_ role: ChatMessage.Role) async -> ChatMessage {
        let event = await events.next { if case .messageAdded(let m) = $0 { m.role == role } else { false } }
        guard case .messageAdded(let message) = event else { fatalError() }
        return message
    }

    /// Waits until no socket holds the conversation's turn any more.
    func turnEnded(in conversation: UUID) async {
        while chat.hasActiveTurn(conversation) {
            _ = await events.next { $0 == .turnChanged(conversation: conversation) }
        }
    }
}
