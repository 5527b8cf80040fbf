/// The history file's tables and their upgrades. `PRAGMA user_version` says which upgrades a file
/// has had, so each runs once; a file from a newer release is left alone. A file at `current` has
/// every table and index: opening it only sets the connection's options (a change to `tables`
/// comes with a new version).
enum HistorySchema {
    static let current: Int64 = 1

    // One statement per string (no multi-line literal: xgettext reads these files too).
    static let connection = [
        "PRAGMA journal_mode = WAL;",
        "PRAGMA synchronous = NORMAL;",
        "PRAGMA foreign_keys = ON;",
    ].joined(separator: " ")

    static let tables = [
        "CREATE TABLE IF NOT EXISTS conversations (",
        "id TEXT PRIMARY KEY, agent TEXT NOT NULL, title TEXT NOT NULL,",
        "created REAL NOT NULL, updated REAL NOT NULL, draft TEXT NOT NULL DEFAULT '');",
        "CREATE TABLE IF NOT EXISTS messages (",
        "seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,",
        "conversation TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,",
        "role TEXT NOT NULL, text TEXT NOT NULL, state TEXT NOT NULL, created REAL NOT NULL,",
        "attachments TEXT NOT NULL DEFAULT '[]');",
        "CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation, seq);",
        // The outbox, the interrupted replies and today's activity are found through these,
        // not by reading every message: with 10,000 messages each such scan took 7–10 ms.
        "CREATE INDEX IF NOT EXISTS messages_by_state ON messages(state, seq);",
        "CREATE INDEX IF NOT EXISTS messages_by_created ON messages(created);",
    ].joined(separator: " ")

    /// Version 1: the full-text index of what was said (status pills are not), kept by triggers so every
    /// write path keeps it current. Two-letter prefixes have an index of their own: as the user types, those
    /// match the most words (one for three letters too took the index past +40 % of the file). It stores no copy of the text (external content: the `message_text`
    /// view). Rows already in the file are indexed afterwards, off the main thread (`SearchIndexBackfill`):
    /// `search_backfill` holds the range of sequence numbers not indexed yet, and the triggers leave
    /// those rows alone until the backfill has taken them.
    static let searchIndex = [
        "CREATE VIEW message_text AS SELECT seq, text FROM messages WHERE role != 'status';",
        "CREATE VIRTUAL TABLE message_index USING fts5(text, content='message_text', content_rowid='seq',",
        "tokenize='unicode61 remove_diacritics 2', prefix='2');",
        "CREATE TABLE search_backfill (started_from INTEGER NOT NULL, pending_from INTEGER NOT NULL, pending_to INTEGER NOT NULL);",
        "INSERT INTO search_backfill SELECT IFNULL(MIN(seq), 0), IFNULL(MIN(seq), 0), IFNULL(MAX(seq) + 1, 0) FROM messages;",
        "CREATE TRIGGER message_indexed AFTER INSERT ON messages WHEN new.role != 'status' BEGIN",
        "INSERT INTO message_index (rowid, text) VALUES (new.seq, new.text); END;",
        "CREATE TRIGGER message_unindexed AFTER DELETE ON messages WHEN old.role != 'status' AND \(indexed("old")) BEGIN",
        "INSERT INTO message_index (message_index, rowid, text) VALUES ('delete', old.seq, old.text); END;",
        "CREATE TRIGGER message_reindexed AFTER UPDATE OF text ON messages WHEN old.role != 'status' AND \(indexed("old")) BEGIN",
        "INSERT INTO message_index (message_index, rowid, text) VALUES ('delete', old.seq, old.text);",
        "INSERT INTO message_index (rowid, text) VALUES (new.seq, new.text); END;",
    ].joined(separator: " ")

    /// True for a row the index holds: outside the range the backfill has still to take.
    private static func indexed(_ row: String) -> String {
        "NOT EXISTS (SELECT 1 FROM search_backfill WHERE \(row).seq >= pending_from AND \(row).seq < pending_to)"
    }

    static func upgrade(_ db: SQLiteDatabase) throws {
        try db.execute(connection)
        let version = try db.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
        guard version < current else { return }
        try db.execute(tables)
        try db.execute("BEGIN IMMEDIATE")
        do {
            // Read again inside the write lock: another process may have upgraded the file meanwhile.
            let locked = try db.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
            if locked < 1 { try db.execute(searchIndex) }
            try db.execute("PRAGMA user_version = \(current)")
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
