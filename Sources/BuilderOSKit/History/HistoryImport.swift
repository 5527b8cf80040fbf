import Foundation

/// Why a file was refused as a history import. Nothing of a refused file is imported.
public enum HistoryImportProblem: Error, Sendable, Equatable {
    case tooLarge(bytes: Int64)
    case notJSON
    case notAnExport
    case newerFormat(version: Int)
    /// A field is missing or has a value this release does not know; `field` is its path, e.g. `conversations[2].messages[5].state`.
    case invalidField(String)

    public var message: String {
        switch self {
        case .tooLarge(let bytes):
            return String(
                format: L("The file is too large to import (%@; at most %@)."),
                ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file),
                ByteCountFormatter.string(fromByteCount: HistoryImport.maximumBytes, countStyle: .file))
        case .notJSON: return L("The file is not complete JSON: it may have been cut off, or it is another kind of file.")
        case .notAnExport: return L("The file is not a BuilderOS history export.")
        case .newerFormat(let version):
            return L("The file was exported by a newer BuilderOS Desktop (format %d). Update this app to import it.", String(version))
        case .invalidField(let field):
            return L("The file is not a valid history export: “%@” is missing or has a value this app does not know.", field)
        }
    }
}

/// What an import added. Messages are merged by id: importing a file twice adds nothing the second time.
public struct HistoryImportSummary: Sendable, Equatable {
    public var conversationsAdded = 0
    public var messagesAdded = 0
    public var messagesAlreadyThere = 0
    /// Conversations that were here already and got messages: a view showing one reads it again.
    public var conversationsGrown: Set<UUID> = []

    /// What the import did, a sentence a count so each takes its plural form (the app's dialog, the CLI).
    public var lines: [String] {
        [
            L("New conversations: %d", "New conversations: %d", counting: conversationsAdded),
            L("New messages: %d", "New messages: %d", counting: messagesAdded),
            L("Messages already here: %d", "Messages already here: %d", counting: messagesAlreadyThere),
        ]
    }
}

/// Reads a JSON export (`HistoryExportDocument`) into the history in one transaction: a file is
/// imported whole or not at all.
public enum HistoryImport {
    /// Far above any real history (100,000 messages export to about 60 MB); decoding needs several times the file.
    public static let maximumBytes: Int64 = 256 << 20

    public static func read(fileAt path: String) throws(BuilderOSError) -> HistoryExportDocument {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            (attributes[.type] as? FileAttributeType) == .typeRegular,
            let handle = FileHandle(forReadingAtPath: path)
        else { throw .fileUnreadable(path: path) }
        defer { try? handle.close() }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        guard size <= maximumBytes else { throw .historyImportRefused(.tooLarge(bytes: size)) }
        // Never more than the limit, even if the file grows while it is read.
        guard let data = try? handle.read(upToCount: Int(maximumBytes) + 1) ?? Data() else { throw .fileUnreadable(path: path) }
        guard data.count <= maximumBytes else { throw .historyImportRefused(.tooLarge(bytes: Int64(data.count))) }
        return try decode(data)
    }

    public static func decode(_ data: Data) throws(BuilderOSError) -> HistoryExportDocument {
        // The header first, leniently: another kind of JSON, or a newer format, is named as such.
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch {
            if case DecodingError.typeMismatch = error { throw .historyImportRefused(.notAnExport) }
            throw .historyImportRefused(.notJSON)
        }
        guard header.format == HistoryExportDocument.formatName, let version = header.version else {
            throw .historyImportRefused(.notAnExport)
        }
        guard version <= HistoryExportDocument.formatVersion else { throw .historyImportRefused(.newerFormat(version: version)) }
        do { return try JSONDecoder().decode(HistoryExportDocument.self, from: data) } catch {
            throw .historyImportRefused(.invalidField(fieldPath(of: error)))
        }
    }

    static func fieldPath(of error: any Error) -> String {
        let path: [any CodingKey]
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: path = context.codingPath + [key]
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?: path = context.codingPath
        default: path = []
        }
        return path.reduce("") { text, key in
            if let index = key.intValue { return text + "[\(index)]" }
            return text.isEmpty ? key.stringValue : text + "." + key.stringValue
        }
    }
}

extension HistoryStore {
    /// Merges `document` into the history by id, in one transaction. A message that was waiting to be
    /// sent or still arriving when it was exported comes in as not delivered or interrupted: an import
    /// never sends anything by itself.
    @discardableResult
    public func importHistory(_ document: HistoryExportDocument) throws(BuilderOSError) -> HistoryImportSummary {
        finishStreamingWrites()
        var summary = HistoryImportSummary()
        do {
            try db.execute("BEGIN IMMEDIATE")
            for c in document.conversations {
                try db.run(
                    "INSERT OR IGNORE INTO conversations (id, agent, title, created, updated, draft) VALUES (?, ?, ?, ?, ?, '')",
                    [.text(c.id.uuidString), .text(c.agent.rawValue), .text(c.title), .real(c.created), .real(c.updated)])
                let existed = db.changes == 0
                if existed {
                    try db.run("UPDATE conversations SET updated = MAX(updated, ?) WHERE id = ?", [.real(c.updated), .text(c.id.uuidString)])
                } else {
                    summary.conversationsAdded += 1
                }
                let lastBefore = try db.query("SELECT IFNULL(MAX(seq), 0) FROM messages") { $0.int(0) }.first ?? 0
                let addedBefore = summary.messagesAdded
                for m in c.messages {
                    let state: ChatMessage.State = m.state == .queued ? .failed : m.state == .streaming ? .interrupted : m.state
                    let attachments = String(decoding: (try? JSONEncoder().encode(m.attachments)) ?? Data("[]".utf8), as: UTF8.self)
                    try db.run(
                        "INSERT OR IGNORE INTO messages (id, conversation, role, text, state, created, attachments) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [
                            .text(m.id.uuidString), .text(c.id.uuidString), .text(m.role.rawValue), .text(m.text),
                            .text(state.rawValue), .real(m.created), .text(attachments),
                        ])
                    if db.changes > 0 { summary.messagesAdded += 1 } else { summary.messagesAlreadyThere += 1 }
                }
                if existed, summary.messagesAdded > addedBefore {
                    summary.conversationsGrown.insert(c.id)
                    try keepInOrder(c.id, addedAfter: lastBefore)
                }
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw .other(detail: L("The chat history at %@ could not be written.", path))
        }
        return summary
    }

    /// A conversation is shown in the order of its messages' numbers, which an insert takes from the end. Messages
    /// merged into a conversation already here (numbered after `sequence`) that are older than some already here
    /// (a backup of another computer's part of it) are put in place: the conversation's messages are written
    /// again in the order they were made, the index following through its triggers.
    private func keepInOrder(_ conversation: UUID, addedAfter sequence: Int64) throws {
        let id = SQLiteDatabase.Value.text(conversation.uuidString)
        let outOfOrder =
            try db.query(
                "SELECT (SELECT MIN(created) FROM messages WHERE conversation = ? AND seq > ?)"
                    + " < (SELECT MAX(created) FROM messages WHERE conversation = ? AND seq <= ?)",
                [id, .int(sequence), id, .int(sequence)]
            ) { $0.int(0) }.first == 1
        guard outOfOrder else { return }
        let columns = "id, conversation, role, text, state, created, attachments"
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS import_order (\(columns))")
        try db.run("INSERT INTO import_order SELECT \(columns) FROM messages WHERE conversation = ? ORDER BY created, seq", [id])
        try db.run("DELETE FROM messages WHERE conversation = ?", [id])
        try db.execute("INSERT INTO messages (\(columns)) SELECT \(columns) FROM import_order ORDER BY rowid")
        try db.execute("DELETE FROM import_order")
    }
}
