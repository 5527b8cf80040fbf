import Foundation

/// One message that matched a search, with the conversation it belongs to.
public struct SearchHit: Sendable, Equatable {
    public let message: UUID
    public let sequence: Int64
    public let conversation: UUID
    public let conversationTitle: String
    public let agent: ChatAgent
    public let role: ChatMessage.Role
    public let created: Date
    /// A few words around the match; the matched words are the runs marked `matched`.
    public let snippet: [SnippetRun]
}

public struct SnippetRun: Sendable, Equatable {
    public var text: String
    public var matched: Bool
}

/// Hits of one conversation, for a result list grouped by conversation.
public struct SearchGroup: Sendable, Equatable {
    public let conversation: UUID
    public let title: String
    public let agent: ChatAgent
    public var hits: [SearchHit]
}

extension [SnippetRun] {
    /// The snippet with at most `context` characters before its first match, cut at a word and
    /// marked "…": a row narrower than the snippet cuts its end, where the match could be.
    public func withMatchNearStart(context: Int) -> [SnippetRun] {
        guard let first = firstIndex(where: \.matched) else { return self }
        let before = self[..<first].map(\.text).joined()
        guard before.count > context else { return self }
        var kept = before.suffix(context)
        if let space = kept.firstIndex(of: " ") { kept = kept[kept.index(after: space)...] }
        return [SnippetRun(text: "…" + kept, matched: false)] + self[first...]
    }
}

extension [SearchHit] {
    /// Grouped by conversation, the group with the newest hit first; hits newest first within it.
    public func grouped() -> [SearchGroup] {
        var order: [UUID] = []
        var groups: [UUID: SearchGroup] = [:]
        for hit in self.sorted(by: { $0.created > $1.created }) {
            if groups[hit.conversation] == nil {
                order.append(hit.conversation)
                groups[hit.conversation] = SearchGroup(conversation: hit.conversation, title: hit.conversationTitle, agent: hit.agent, hits: [])
            }
            groups[hit.conversation]?.hits.append(hit)
        }
        return order.compactMap { groups[$0] }
    }
}

enum HistorySearch {
    // Marks SQLite puts around matched words in a snippet; control characters are never shown as text.
    static let open: Character = "\u{1}"
    static let close: Character = "\u{2}"

    /// The newest `limit` messages matching `query`. FTS5 walks its matches newest first (by rowid,
    /// the sequence number) and stops at the limit, so a snippet is made only for the rows returned.
    static let statement = [
        "SELECT i.rowid, snippet(message_index, 0, char(1), char(2), '…', 12),",
        "m.id, m.conversation, m.role, m.created, c.title, c.agent",
        "FROM message_index i JOIN messages m ON m.seq = i.rowid JOIN conversations c ON c.id = m.conversation",
        "WHERE message_index MATCH ? ORDER BY i.rowid DESC LIMIT ?",
    ].joined(separator: " ")

    static func run(_ query: SearchQuery, limit: Int, in db: SQLiteDatabase) -> [SearchHit] {
        guard let expression = query.expression, limit > 0 else { return [] }
        return
            (try? db.query(statement, [.text(expression), .int(Int64(limit))]) { r in
                SearchHit(
                    message: UUID(uuidString: r.text(2)) ?? UUID(), sequence: r.int(0),
                    conversation: UUID(uuidString: r.text(3)) ?? UUID(), conversationTitle: r.text(6),
                    agent: ChatAgent(rawValue: r.text(7)) ?? .jarvis, role: ChatMessage.Role(rawValue: r.text(4)) ?? .assistant,
                    created: Date(timeIntervalSince1970: r.real(5)), snippet: runs(r.text(1)))
            }) ?? []
    }

    static func runs(_ marked: String) -> [SnippetRun] {
        var runs: [SnippetRun] = []
        var current = ""
        var matched = false
        for character in marked {
            if character == open || character == close {
                if !current.isEmpty { runs.append(SnippetRun(text: current, matched: matched)) }
                current = ""
                matched = character == open
            } else {
                current.append(character == "\n" ? " " : character)
            }
        }
        if !current.isEmpty { runs.append(SnippetRun(text: current, matched: matched)) }
        return runs
    }
}

extension HistoryStore {
    /// The newest `limit` messages matching `query`, on this store's connection (the CLI, tests). The
    /// window searches through a `HistorySearcher`, off the main thread.
    public func search(_ query: SearchQuery, limit: Int = 50) -> [SearchHit] {
        HistorySearch.run(query, limit: limit, in: db)
    }
}

/// Searches a history file on a connection and a thread of its own: typing never waits for a query,
/// and a query overtaken by newer typing is dropped before it runs.
public final class HistorySearcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "app.builderos.Desktop.search")
    private let db: SQLiteDatabase
    private let lock = NSLock()
    private var generation = 0

    public init(path: String) throws(BuilderOSError) {
        do { db = try SQLiteDatabase(path: path) } catch {
            throw .other(detail: L("The chat history at %@ could not be opened.", path))
        }
    }

    /// Runs `query`; `results` is called on the main queue, unless a newer search has started meanwhile.
    public func search(_ query: SearchQuery, limit: Int = 50, results: @escaping @Sendable @MainActor ([SearchHit]) -> Void) {
        run({ HistorySearch.run(query, limit: limit, in: $0) }, results: results)
    }

    /// Runs `work` on this searcher's thread; hands its result to the main queue unless overtaken.
    func run<Result: Sendable>(_ work: @escaping @Sendable (SQLiteDatabase) -> Result, results: @escaping @Sendable @MainActor (Result) -> Void) {
        let ticket = lock.withLock {
            generation += 1
            return generation
        }
        queue.async { [self] in
            guard isCurrent(ticket) else { return }
            let found = work(db)
            guard isCurrent(ticket) else { return }
            DispatchQueue.main.async { if self.isCurrent(ticket) { results(found) } }
        }
    }

    private func isCurrent(_ ticket: Int) -> Bool { lock.withLock { ticket == generation } }
}

extension HistoryStore {
    /// The bytes the file's pages hold, and the search index's share of them (SQLite's `dbstat`), for
    /// the benchmark's size check; nil where SQLite was built without `dbstat`.
    public func storageBytes() -> (total: Int, searchIndex: Int)? {
        guard let total = try? db.query("SELECT SUM(pgsize) FROM dbstat", [], { $0.int(0) }).first,
            let index = try? db.query("SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'message_index%'", [], { $0.int(0) }).first
        else { return nil }
        return (Int(total), Int(index))
    }
}
