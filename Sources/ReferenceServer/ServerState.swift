import Foundation
import Synchronization

/// Everything the reference server remembers while it runs. Shared by all routes and sockets.
public final class ServerState: Sendable {
    public let apiKey: String
    public let version: String
    public let uploadDirectory: URL
    /// When set, every user message received is appended here as a JSON line
    /// (`{"session_id","content"}`), surviving restarts: tests count deliveries with it.
    public let messageLog: URL?
    let startedAt = Date()
    private let storage = Mutex(Storage())

    struct Storage {
        var faults = Faults()
        var sessions: [String: ChatSessionRecord] = [:]
        var connections: [String: Int] = ["claude": 0, "codex": 0]
        var sleepRequests = 0
        var requests: [String: Int] = [:]
        var wrongKeys: [String] = []
        var baseURL = ""
        var terminals = 0
        var terminalCommand: [String]?
    }

    /// At most this many terminals at once (each is a shell on this machine).
    public static let terminalLimit = 8

    /// Counts a terminal in; false when the limit is reached.
    func openTerminal() -> Bool {
        storage.withLock { s in
            guard s.terminals < Self.terminalLimit else { return false }
            s.terminals += 1
            return true
        }
    }

    func closeTerminal() { storage.withLock { $0.terminals -= 1 } }

    /// What a terminal runs instead of the user's login shell (nil: the login shell).
    public var terminalCommand: [String]? {
        get { storage.withLock { $0.terminalCommand } }
        set { storage.withLock { $0.terminalCommand = newValue } }
    }

    /// Terminals open now (tests check that a closed socket ends its shell).
    public var openTerminals: Int { storage.withLock { $0.terminals } }

    public init(apiKey: String, version: String = ReferenceServer.version, uploadDirectory: URL, messageLog: URL? = nil) {
        self.apiKey = apiKey
        self.messageLog = messageLog
        self.version = version
        self.uploadDirectory = uploadDirectory
    }

    public var faults: Faults {
        get { storage.withLock { $0.faults } }
        set { storage.withLock { $0.faults = newValue } }
    }

    /// How many requests reached each path (tests count retries with it).
    public func requestCount(path: String) -> Int { storage.withLock { $0.requests[path, default: 0] } }
    public func requestCounts() -> [String: Int] { storage.withLock { $0.requests } }
    func recordRequest(path: String) { storage.withLock { $0.requests[path, default: 0] += 1 } }

    /// Consumes one "drop before reply" fault; true when this message's socket must be dropped.
    func takeDropBeforeReply() -> Bool {
        storage.withLock { s in
            guard s.faults.dropBeforeReplyCount > 0 else { return false }
            s.faults.dropBeforeReplyCount -= 1
            return true
        }
    }

    /// How many sleep requests were accepted (tests check that sleep is never retried).
    public var sleepRequestCount: Int { storage.withLock { $0.sleepRequests } }
    func recordSleep() { storage.withLock { $0.sleepRequests += 1 } }

    var baseURL: String {
        get { storage.withLock { $0.baseURL } }
        set { storage.withLock { $0.baseURL = newValue } }
    }

    func isValid(key: String?) -> Bool {
        guard let key, !faults.rejectAllKeys else { return false }
        let valid = constantTimeEquals(key, apiKey)
        if !valid { storage.withLock { $0.wrongKeys.append(key) } }
        return valid
    }

    /// Every key sent to this server that was not its own, in order: tests with several servers check
    /// that none carried another server's (read only through the test controls).
    public func wrongKeys() -> [String] { storage.withLock { $0.wrongKeys } }

    var connections: [String: Int] { storage.withLock { $0.connections } }
    func connectionOpened(_ agent: String) { storage.withLock { $0.connections[agent, default: 0] += 1 } }
    func connectionClosed(_ agent: String) { storage.withLock { $0.connections[agent, default: 1] -= 1 } }

    /// Counts a user message against its session, creating the session on first use.
    func recordMessage(sessionID: String, agent: String, deviceID: String, content: String) {
        let now = ServerTimestamp.now()
        if let messageLog, let line = try? JSONSerialization.data(withJSONObject: ["session_id": sessionID, "content": content]) {
            storage.withLock { _ in
                if !FileManager.default.fileExists(atPath: messageLog.path) {
                    _ = FileManager.default.createFile(atPath: messageLog.path, contents: nil)
                }
                if let handle = try? FileHandle(forWritingTo: messageLog) {
                    handle.seekToEndOfFile()
                    handle.write(line + Data("\n".utf8))
                    try? handle.close()
                }
            }
        }
        storage.withLock { s in
            var record =
                s.sessions[sessionID]
                ?? ChatSessionRecord(
                    sessionId: sessionID, agentType: agent, deviceId: deviceID,
                    messageCount: 0, createdAt: now, lastActivity: now)
            record.messageCount += 1
            record.lastActivity = now
            s.sessions[sessionID] = record
        }
    }

    /// How many user messages a session received (tests check for lost or duplicated messages).
    public func messageCount(sessionID: String) -> Int { storage.withLock { $0.sessions[sessionID]?.messageCount ?? 0 } }
    var sessions: [ChatSessionRecord] { storage.withLock { Array($0.sessions.values) }.sorted { $0.createdAt < $1.createdAt } }
    func closeSession(_ id: String) -> Bool { storage.withLock { $0.sessions.removeValue(forKey: id) != nil } }

    private func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

struct ChatSessionRecord: Codable, Sendable {
    var sessionId: String
    var agentType: String
    var deviceId: String
    var messageCount: Int
    var createdAt: String
    var lastActivity: String
}
