import Foundation

/// The JSON export: everything the history holds of a conversation, lossless (ids, states, times as
/// seconds since 1970, attachments' names and sizes — their bytes stay on the server, which the
/// attachment's `url` names). `HistoryImport` reads it back.
public struct HistoryExportDocument: Codable, Sendable, Equatable {
    public static let formatName = "builderos-desktop-history"
    /// Raised when a field's meaning changes; an import refuses a higher one.
    public static let formatVersion = 1

    public var format: String
    public var version: Int
    public var exported: Double
    /// The server the conversations were held with, when the exporter knew it (no key, ever).
    public var server: String?
    public var conversations: [Conversation]

    public struct Conversation: Codable, Sendable, Equatable {
        public var id: UUID
        public var agent: ChatAgent
        public var title: String
        public var created: Double
        public var updated: Double
        public var draft: String
        public var messages: [Message]
    }

    public struct Message: Codable, Sendable, Equatable {
        public var id: UUID
        public var role: ChatMessage.Role
        public var text: String
        public var state: ChatMessage.State
        public var created: Double
        public var attachments: [ChatAttachment]
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }
}

extension HistoryStore {
    /// The conversations `ids` (all when nil), newest first, with every message.
    public func exportDocument(of ids: [UUID]? = nil, server: String? = nil, now: Date = Date()) -> HistoryExportDocument {
        let chosen = conversations().filter { ids?.contains($0.id) ?? true }
        return HistoryExportDocument(
            format: HistoryExportDocument.formatName, version: HistoryExportDocument.formatVersion,
            exported: now.timeIntervalSince1970, server: server,
            conversations: chosen.map { c in
                HistoryExportDocument.Conversation(
                    id: c.id, agent: c.agent, title: c.title, created: c.created.timeIntervalSince1970,
                    updated: c.updated.timeIntervalSince1970, draft: c.draft,
                    messages: allMessages(in: c.id).map { m in
                        HistoryExportDocument.Message(
                            id: m.id, role: m.role, text: m.text, state: m.state, created: m.created.timeIntervalSince1970,
                            attachments: m.attachments)
                    })
            })
    }

    /// Every message of a conversation, oldest first.
    public func allMessages(in conversation: UUID) -> [ChatMessage] {
        messages(in: conversation, after: 0, limit: Int.max)
    }
}

/// The Markdown export: one readable file per conversation. Message texts are Markdown already and
/// are written unchanged, so code blocks stay intact.
public enum HistoryMarkdown {
    public static func render(_ conversation: Conversation, messages: [ChatMessage], timeZone: TimeZone = .current) -> String {
        let time = formatter(timeZone)
        var lines = ["# " + oneLine(conversation.title), ""]
        lines.append("- " + L("Agent: %@", conversation.agent.displayName))
        lines.append("- " + L("Started: %@", time.string(from: conversation.created)))
        if let last = messages.last {
            lines.append("- " + L("Last message: %@", time.string(from: last.created)))
        }
        for message in messages {
            lines.append("")
            lines.append("---")
            lines.append("")
            if message.role == .status {
                lines.append("_\(oneLine(message.text))_ · \(time.string(from: message.created))")
                continue
            }
            let who = message.role == .user ? L("You") : conversation.agent.displayName
            var heading = "**\(who)** · \(time.string(from: message.created))"
            if let note = stateNote(message.state) { heading += " · _\(note)_" }
            lines.append(heading)
            lines.append("")
            lines.append(closingOpenFence(message.text))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A file name for the conversation: its date and title, safe on every file system, unique by the id's start.
    public static func fileName(for conversation: Conversation, timeZone: TimeZone = .current) -> String {
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = timeZone
        day.dateFormat = "yyyy-MM-dd"
        let unsafe = CharacterSet(charactersIn: "/\\:*?\"<>|").union(.controlCharacters)
        let title = String(conversation.title.unicodeScalars.map { unsafe.contains($0) ? " " : Character($0) })
            .split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(60)
        let prefix = conversation.id.uuidString.prefix(8).lowercased()
        return "\(day.string(from: conversation.created)) \(title.isEmpty ? "Chat" : String(title)) (\(prefix)).md"
    }

    private static func stateNote(_ state: ChatMessage.State) -> String? {
        switch state {
        case .queued: return L("not sent")
        case .failed: return L("failed")
        case .interrupted: return L("interrupted")
        case .stopped: return L("stopped")
        case .streaming, .sent, .complete: return nil
        }
    }

    /// A reply cut off inside a code block would swallow the rest of the file into it.
    private static func closingOpenFence(_ text: String) -> String {
        let fences = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("```") }.count
        return fences % 2 == 1 ? text + "\n```" : text
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func formatter(_ timeZone: TimeZone) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f
    }
}

public enum HistoryExportFormat: String, Sendable, CaseIterable {
    case markdown, json
}

extension HistoryStoring {
    /// Writes `conversations` to `path`: JSON (lossless), or Markdown — one file for one conversation,
    /// else a folder with a file each (`HistoryMarkdown.fileName`).
    public func export(_ conversations: [Conversation], as format: HistoryExportFormat, to path: String, server: String?)
        throws(BuilderOSError)
    {
        switch format {
        case .json:
            try HistoryFiles.write(exportDocument(of: conversations.map(\.id), server: server, now: Date()).encoded(), to: path)
        case .markdown where conversations.count == 1:
            let c = conversations[0]
            try HistoryFiles.write(Data(HistoryMarkdown.render(c, messages: allMessages(in: c.id)).utf8), to: path)
        case .markdown:
            try HistoryFiles.makeFolder(path)
            for c in conversations {
                let file = (path as NSString).appendingPathComponent(HistoryMarkdown.fileName(for: c))
                try HistoryFiles.write(Data(HistoryMarkdown.render(c, messages: allMessages(in: c.id)).utf8), to: file)
            }
        }
    }
}

/// Export files: private to the user from their first byte (it is the user's history), and written
/// whole or not at all (a temporary file renamed into place).
public enum HistoryFiles {
    public static func write(_ data: Data, to path: String) throws(BuilderOSError) {
        let temporary = path + ".part-" + UUID().uuidString.prefix(8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .fileUnwritable(path: path) }
        var written = 0
        let complete = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += n
            }
            return true
        }
        let closed = close(fd) == 0
        guard complete, closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .fileUnwritable(path: path)
        }
    }

    public static func makeFolder(_ path: String) throws(BuilderOSError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw .fileUnwritable(path: path)
        }
    }
}
