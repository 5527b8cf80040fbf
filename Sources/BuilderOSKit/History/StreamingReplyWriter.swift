import Foundation

/// Stores a streaming reply's text on a connection and a thread of its own, so the main thread never
/// waits for SQLite while a reply streams (docs/performance.md, rule 50).
///
/// Only the newest text of each reply is written: texts handed over while a write runs replace one
/// another. `drain()` returns once everything handed over has landed; `HistoryStore` calls it before
/// its own updates of a message, so a reply's final text is never overwritten by an older one.
final class StreamingReplyWriter: @unchecked Sendable {
    private let path: String
    private let queue = DispatchQueue(label: "app.builderos.Desktop.streaming-reply-writer")
    private let lock = NSLock()
    private var pending: [UUID: String] = [:]
    /// Opened on the queue at the first write, never creating the file (`SQLiteDatabase(create:)`).
    private var db: SQLiteDatabase?

    init(path: String) { self.path = path }

    func store(_ id: UUID, text: String) {
        let scheduled = lock.withLock {
            defer { pending[id] = text }
            return !pending.isEmpty
        }
        if !scheduled { queue.async { self.writePending() } }
    }

    /// Waits for the writes handed over before this call.
    func drain() { queue.sync {} }

    private func writePending() {
        let texts = lock.withLock {
            defer { pending = [:] }
            return pending
        }
        if db == nil {
            db = try? SQLiteDatabase(path: path, create: false)
            try? db?.execute(HistorySchema.connection)
        }
        for (id, text) in texts {
            try? db?.run(
                "UPDATE messages SET text = ?, state = ? WHERE id = ?",
                [.text(text), .text(ChatMessage.State.streaming.rawValue), .text(id.uuidString)])
        }
    }
}
