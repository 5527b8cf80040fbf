import Foundation

/// The two chat agents and their sockets.
public enum ChatAgent: String, Codable, Sendable, CaseIterable {
    case jarvis, codex

    /// Path of the agent's WebSocket.
    public var socketPath: String { self == .jarvis ? "/api/claude/ws" : "/api/codex/ws" }
    /// The name the server uses in session ids and `agent_type`.
    public var serverName: String { self == .jarvis ? "claude" : "codex" }
    public var displayName: String { self == .jarvis ? "Jarvis" : "Codex" }
}

/// A frame received on a chat socket.
public enum ChatFrame: Sendable, Equatable {
    /// `authenticated`: the key was accepted.
    case authenticated
    /// `error:<reason>` before authentication, e.g. `error:invalid_api_key`.
    case authenticationFailed(reason: String)
    /// `{"type":"ready",…}`, which may arrive at any time.
    case ready
    /// `{"type":"message"|"stream","content":…}`: one chunk of the reply.
    case chunk(String)
    /// `{"type":"complete",…}`: the turn ended.
    case complete(messageCount: Int?, usage: Usage?)
    /// `{"type":"error","content":…}`: the turn ended with an error.
    case error(String)
    /// A JSON frame of a type this client does not know: ignored.
    case unknown(type: String)
    /// Not a frame of the protocol (not JSON, no type): reported, never fatal.
    case malformed

    public struct Usage: Codable, Sendable, Equatable {
        public var inputTokens: Int?
        public var cachedInputTokens: Int?
        public var outputTokens: Int?
    }

    private struct Envelope: Decodable {
        var type: String?
        var content: JSONValue?
        var messageCount: Int?
        var usage: Usage?
    }

    public init(text: String) {
        if text == "authenticated" { self = .authenticated; return }
        if text.hasPrefix("error:") { self = .authenticationFailed(reason: String(text.dropFirst(6))); return }
        guard let envelope = try? WireJSON.decoder().decode(Envelope.self, from: Data(text.utf8)),
            let type = envelope.type
        else { self = .malformed; return }
        let content: String
        switch envelope.content {
        case .string(let s): content = s
        case .none, .null: content = ""
        case .some(let other): content = other.readableLines.joined(separator: "\n")
        }
        switch type {
        case "ready": self = .ready
        case "message", "stream": self = .chunk(content)
        case "complete": self = .complete(messageCount: envelope.messageCount, usage: envelope.usage)
        case "error": self = .error(content)
        default: self = .unknown(type: type)
        }
    }
}

/// An attachment already uploaded through `/api/files/upload`.
public struct ChatAttachment: Codable, Sendable, Equatable {
    public var id: String
    public var filename: String
    public var mimeType: String
    public var size: Int
    public var type: String
    public var url: String

    public init(id: String, filename: String, mimeType: String, size: Int, type: String, url: String) {
        (self.id, self.filename, self.mimeType, self.size, self.type, self.url) = (id, filename, mimeType, size, type, url)
    }
}

/// The user message frame: `{"content","session_id","device_id","chat_type","attachments"?}`.
public struct OutgoingChatMessage: Codable, Sendable, Equatable {
    public var content: String
    public var sessionId: String
    public var deviceId: String
    public var chatType: String
    public var attachments: [ChatAttachment]?

    public init(content: String, sessionId: String, deviceId: String, agent: ChatAgent, attachments: [ChatAttachment] = []) {
        self.content = content.trimmingCharacters(in: .whitespacesAndNewlines)
        self.sessionId = sessionId
        self.deviceId = deviceId
        self.chatType = agent.rawValue
        self.attachments = attachments.isEmpty ? nil : attachments
    }

    public func json() -> String {
        String(decoding: (try? WireJSON.encoder().encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The iOS app's session id shape, kept so servers group our conversations the same way.
    public static func sessionID(deviceID: String, agent: ChatAgent, conversation: UUID) -> String {
        "\(deviceID)-\(agent.serverName)-\(conversation.uuidString.lowercased())"
    }
}
