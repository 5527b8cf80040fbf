import Foundation

/// A message the find bar found in the open conversation: where to show it.
public struct FoundMessage: Sendable, Equatable {
    public let id: UUID
    public let sequence: Int64

    public init(id: UUID, sequence: Int64) {
        self.id = id
        self.sequence = sequence
    }
}

/// The find bar's state: every message of one conversation that matches (the whole conversation,
/// not only what the list has loaded), the newest first, and which one is shown. The count starts
/// at the newest because that is where the reader is; "next" goes back in time, and both ends wrap.
public struct ConversationFind: Sendable, Equatable {
    public private(set) var matches: [FoundMessage] = []
    /// The index in `matches` of the one shown.
    public private(set) var current: Int?

    public init() {}

    /// New results for the text typed: the newest is shown.
    public mutating func replace(with found: [FoundMessage]) -> FoundMessage? {
        matches = found
        current = found.isEmpty ? nil : 0
        return current.map { matches[$0] }
    }

    /// The next older match (after the oldest: the newest again).
    public mutating func next() -> FoundMessage? { step(1) }

    /// The next newer match (before the newest: the oldest).
    public mutating func previous() -> FoundMessage? { step(-1) }

    public mutating func clear() { _ = replace(with: []) }

    /// "3 of 12" as numbers: the shown one counted from 1, and how many there are.
    public var position: (shown: Int, count: Int)? { current.map { ($0 + 1, matches.count) } }

    private mutating func step(_ by: Int) -> FoundMessage? {
        guard let current, !matches.isEmpty else { return nil }
        let next = (current + by + matches.count) % matches.count
        self.current = next
        return matches[next]
    }
}

extension HistorySearch {
    static let findStatement = [
        "SELECT m.seq, m.id FROM message_index i JOIN messages m ON m.seq = i.rowid",
        "WHERE message_index MATCH ? AND m.conversation = ? ORDER BY i.rowid DESC",
    ].joined(separator: " ")

    /// Every message of `conversation` matching `query`, the newest first.
    static func find(_ query: SearchQuery, in conversation: UUID, db: SQLiteDatabase) -> [FoundMessage] {
        guard let expression = query.expression else { return [] }
        return
            (try? db.query(findStatement, [.text(expression), .text(conversation.uuidString)]) { r in
                UUID(uuidString: r.text(1)).map { FoundMessage(id: $0, sequence: r.int(0)) }
            })?.compactMap { $0 } ?? []
    }
}

extension HistoryStore {
    /// Every message of `conversation` matching `query`, the newest first, on this store's connection
    /// (tests); the window finds through a `HistorySearcher`.
    public func find(_ query: SearchQuery, in conversation: UUID) -> [FoundMessage] {
        HistorySearch.find(query, in: conversation, db: db)
    }
}

extension HistorySearcher {
    /// Finds `query` in `conversation`; `results` is called on the main queue unless a newer
    /// search on this searcher has started meanwhile.
    public func find(_ query: SearchQuery, in conversation: UUID, results: @escaping @Sendable @MainActor ([FoundMessage]) -> Void) {
        run({ HistorySearch.find(query, in: conversation, db: $0) }, results: results)
    }
}
