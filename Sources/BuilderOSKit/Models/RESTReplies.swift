import Foundation

// Replies of the REST routes in the wire contract. Every field a server may leave out is
// optional; unknown keys are ignored (Codable's default) so richer servers decode too.

/// `GET /api/health`
public struct HealthReply: Codable, Sendable, Equatable {
    public var status: String?
    public var version: String?
    public var timestamp: FlexibleTimestamp?
    public var connections: Connections?

    public struct Connections: Codable, Sendable, Equatable {
        public var claude: Int?
        public var codex: Int?
    }
}

/// `GET /api/status`
public struct StatusReply: Codable, Sendable, Equatable {
    public var status: String?
    public var version: String?
    /// Seconds since the server started.
    public var uptime: Double?
    public var health: String?
    public var timestamp: FlexibleTimestamp?
    public var features: [String: Bool]?
}

/// An entry of `GET /api/capsules`.
public struct Capsule: Codable, Sendable, Equatable, Identifiable {
    public var name: String
    public var title: String?
    public var purpose: String?
    public var id: String { name }
    /// What to show as the capsule's title: its title, or its id when the server sent none.
    public var displayTitle: String { (title?.isEmpty == false ? title : nil) ?? name }
}

/// `GET /api/capsules`
public struct CapsuleList: Codable, Sendable, Equatable {
    public var count: Int?
    public var capsules: [Capsule]
}

/// `GET /api/capsules/{name}`
public struct CapsuleDetail: Codable, Sendable, Equatable {
    public var name: String
    public var title: String?
    public var purpose: String?
    public var path: String?
    public var directories: [String]?
}

/// `POST /api/system/sleep`, in either shape servers send:
/// `{"status":"success"|"error","message":…,"help":…}` or the older `{"success":bool,"message":…}`.
public struct SleepReply: Decodable, Sendable, Equatable {
    public var succeeded: Bool
    public var message: String?
    public var help: String?

    enum CodingKeys: String, CodingKey { case status, success, message, help }

    public init(succeeded: Bool, message: String?, help: String?) {
        (self.succeeded, self.message, self.help) = (succeeded, message, help)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        message = try? c.decodeIfPresent(String.self, forKey: .message)
        help = try? c.decodeIfPresent(String.self, forKey: .help)
        if let success = try? c.decodeIfPresent(Bool.self, forKey: .success) {
            succeeded = success
        } else if let status = try? c.decodeIfPresent(String.self, forKey: .status) {
            succeeded = ["success", "ok", "sleeping"].contains(status.lowercased())
        } else {
            throw DecodingError.dataCorruptedError(forKey: .status, in: c, debugDescription: "neither status nor success")
        }
    }
}

/// `POST /api/system/wake`: usually `not_implemented` with instructions for the user.
public struct WakeReply: Decodable, Sendable, Equatable {
    public var status: String?
    public var message: String?
    public var help: String?
    /// The server's instructions, flattened to readable lines whatever their JSON shape.
    public var instructions: [String]

    enum CodingKeys: String, CodingKey { case status, message, help, instructions }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try? c.decodeIfPresent(String.self, forKey: .status)
        message = try? c.decodeIfPresent(String.self, forKey: .message)
        help = try? c.decodeIfPresent(String.self, forKey: .help)
        instructions = (try? c.decodeIfPresent(JSONValue.self, forKey: .instructions))?.flatMap { $0.readableLines } ?? []
    }
}

/// `POST /api/files/upload`
public struct UploadReply: Codable, Sendable, Equatable {
    public var url: String
    public var filename: String?
    public var size: Int?

    /// The upload's address: servers send it relative (`/api/files/…`) or absolute.
    public func resolvedURL(base: ServerAddress) -> String {
        if url.hasPrefix("http://") || url.hasPrefix("https://") { return url }
        return base.url(path: url.hasPrefix("/") ? url : "/" + url)
    }
}

/// `GET /api/sessions` (only some servers).
public struct SessionList: Codable, Sendable, Equatable {
    public var total: Int?
    public var sessions: [Session]

    public struct Session: Codable, Sendable, Equatable {
        public var sessionId: String
        public var agentType: String?
        public var deviceId: String?
        public var messageCount: Int?
        public var createdAt: FlexibleTimestamp?
        public var lastActivity: FlexibleTimestamp?
    }
}

/// The error bodies servers send: `{"error":…}`, `{"ok":false,"error":…}` or `{"message":…}`.
struct ErrorBody: Decodable {
    var error: String?
    var message: String?
    var text: String? { error ?? message }
}
