import Foundation

/// How far the search index has come on a history that existed before it (see `HistorySchema.searchIndex`).
public struct SearchIndexProgress: Sendable, Equatable {
    /// 0…1; 1 when every message is indexed.
    public var fraction: Double
    public var isComplete: Bool { fraction >= 1 }

    public static let complete = SearchIndexProgress(fraction: 1)

    static func read(_ db: SQLiteDatabase) throws -> SearchIndexProgress {
        let rows = try db.query("SELECT started_from, pending_from, pending_to FROM search_backfill") { ($0.int(0), $0.int(1), $0.int(2)) }
        guard let (start, next, end) = rows.first, next < end else { return .complete }
        return SearchIndexProgress(fraction: Double(next - start) / Double(max(end - start, 1)))
    }
}

/// Indexes the messages a history file held before it had a search index: small transactions on a
/// connection of its own, so the window never waits for more than one batch, and an interrupted run
/// goes on where it stopped at the next start.
public enum SearchIndexBackfill {
    /// Rows per transaction: a batch holds the file's write lock, and a send from the window waits for it.
    static let batch: Int64 = 500

    /// Indexes one batch and says how far the index is.
    static func step(_ db: SQLiteDatabase) throws -> SearchIndexProgress {
        try db.execute("BEGIN IMMEDIATE")
        do {
            let rows = try db.query("SELECT pending_from, pending_to FROM search_backfill") { ($0.int(0), $0.int(1)) }
            if let (next, end) = rows.first, next < end {
                let upTo = min(next + batch, end)
                try db.run(
                    "INSERT INTO message_index (rowid, text) SELECT seq, text FROM message_text WHERE seq >= ? AND seq < ?",
                    [.int(next), .int(upTo)])
                try db.run("UPDATE search_backfill SET pending_from = ?", [.int(upTo)])
            }
            let progress = try SearchIndexProgress.read(db)
            try db.execute("COMMIT")
            return progress
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Indexes every pending message of the file at `path`, calling `progress` after each batch on
    /// the calling thread. Returns at once when nothing is pending.
    public static func run(path: String, progress: (SearchIndexProgress) -> Void = { _ in }) throws(BuilderOSError) {
        do {
            let db = try SQLiteDatabase(path: path)
            try HistorySchema.upgrade(db)
            var current = try SearchIndexProgress.read(db)
            while !current.isComplete {
                current = try step(db)
                progress(current)
            }
        } catch {
            throw .other(detail: L("The chat history at %@ could not be indexed for search.", path))
        }
    }

    /// `run` on a thread of its own; `progress` is called on the main queue.
    public static func start(path: String, progress: @escaping @Sendable @MainActor (SearchIndexProgress) -> Void = { _ in }) {
        Thread.detachNewThread {
            try? run(path: path) { value in DispatchQueue.main.async { progress(value) } }
        }
    }
}
