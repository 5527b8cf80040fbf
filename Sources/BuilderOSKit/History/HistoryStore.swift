import Foundation

/// The chat history and outbox, in SQLite (WAL) under `$XDG_DATA_HOME/builderos-desktop/`.
/// Servers keep no history (wire contract §9): this file is the only record of a conversation.
public final class HistoryStore: HistoryStoring {
    public func writtenElsewhereStamp() -> Int64 {
        (try? db.query("PRAGMA data_version", [], { $0.int(0) }))?.first ?? 0
    }

    let db: SQLiteDatabase
    public let path: String
    /// Stores streaming replies' texts off the main thread; made at the first (`storeStreamingText`).
    private var streamingWriter: StreamingReplyWriter?

    /// The folder of every server's history: `$XDG_DATA_HOME/builderos-desktop`.
    public static func folder() -> String {
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (base as NSString).appendingPathComponent("builderos-desktop")
    }

    /// The first server's history (and the only one before several servers: an upgraded profile keeps it).
    public static let firstFileName = "history.sqlite3"

    public static func defaultPath() -> String { path(forFile: firstFileName) }

    public static func path(forFile name: String) -> String { (folder() as NSString).appendingPathComponent(name) }

    public static func fileExists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(forFile: name)) }

    /// Another server's history file: named by its address, so a server set up again finds the history it kept.
    public static func fileName(for server: ServerAddress) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs and releases, unlike Hasher
        for byte in server.baseURL.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "history-" + String(hash, radix: 16) + ".sqlite3"
    }

    /// Renames a history file with SQLite's companions (never over another history).
    public static func rename(file name: String, to newName: String) throws(BuilderOSError) {
        guard !fileExists(newName) else { throw .fileUnwritable(path: path(forFile: newName)) }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path(forFile: name) + suffix) {
            do { try FileManager.default.moveItem(atPath: path(forFile: name) + suffix, toPath: path(forFile: newName) + suffix) } catch {
                throw .fileUnwritable(path: path(forFile: newName))
            }
        }
    }

    /// Removes a history file with SQLite's companions (its write-ahead log and shared memory index).
    public static func delete(file name: String) throws(BuilderOSError) {
        for suffix in ["", "-wal", "-shm"] {
            let path = path(forFile: name) + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do { try FileManager.default.removeItem(atPath: path) } catch { throw .fileUnwritable(path: path) }
        }
    }

    public convenience init(path: String = HistoryStore.defaultPath()) throws(BuilderOSError) {
        try self.init(opening: path)
        try interruptStreamingReplies()
    }

    /// Opens the file, making it and its tables when there is none, and changes no row: what a process
    /// may do before it knows it is the app's only instance (`HistoryOpening`). `interruptStreamingReplies`
    /// completes the opening.
    public init(opening path: String) throws(BuilderOSError) {
        self.path = path
        do {
            if path != Self.memory {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                Self.keepPrivate(path)
            }
            db = try SQLiteDatabase(path: path)
            try HistorySchema.upgrade(db)
        } catch {
            throw Self.cannotOpen(path)
        }
    }

    /// A reply that was streaming when the app ended will never finish.
    public func interruptStreamingReplies() throws(BuilderOSError) {
        do { try db.run(Self.interruptStreaming) } catch { throw Self.cannotOpen(path) }
    }

    private static func cannotOpen(_ path: String) -> BuilderOSError {
        .other(detail: L("The chat history at %@ could not be opened.", path))
    }

    private static let memory = ":memory:"

    /// The history holds the user's conversations: only they may read it, in a folder that was
    /// there before (wider than ours) too. SQLite makes a new database file 0644 less the umask and
    /// gives its log and index the file's mode, so the file is made 0600 before SQLite opens it, and
    /// a file an earlier version made is narrowed with its companions. A file that cannot be changed
    /// (not the user's) is left as it is: SQLite then says whether it can be opened.
    static func keepPrivate(_ path: String) {
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        for suffix in ["", "-wal", "-shm"] { _ = chmod(path + suffix, 0o600) }
    }

    /// The same store in memory: nothing written to disk, gone with the object (tests, benchmarks).
    public static func inMemory() -> HistoryStore {
        // SQLite always opens ":memory:"; the schema is the same as on disk.
        try! HistoryStore(path: memory)
    }

    // MARK: Conversations

    public func conversations() -> [Conversation] {
        (try? db.query("SELECT id, agent, title, created, updated, draft FROM conversations ORDER BY updated DESC") { r in
            Conversation(
                id: UUID(uuidString: r.text(0)) ?? UUID(), agent: ChatAgent(rawValue: r.text(1)) ?? .jarvis,
                title: r.text(2), created: Date(timeIntervalSince1970: r.real(3)),
                updated: Date(timeIntervalSince1970: r.real(4)), draft: r.text(5))
        }) ?? []
    }

    public func insert(_ c: Conversation) {
        try? db.run(
            "INSERT INTO conversations (id, agent, title, created, updated, draft) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(c.id.uuidString), .text(c.agent.rawValue), .text(c.title),
                .real(c.created.timeIntervalSince1970), .real(c.updated.timeIntervalSince1970), .text(c.draft),
            ])
    }

    public func rename(_ id: UUID, to title: String) {
        try? db.run("UPDATE conversations SET title = ? WHERE id = ?", [.text(title), .text(id.uuidString)])
    }

    public func saveDraft(_ id: UUID, _ draft: String) {
        try? db.run("UPDATE conversations SET draft = ? WHERE id = ?", [.text(draft), .text(id.uuidString)])
    }

    /// Deletes the conversation and all its messages.
    public func delete(_ id: UUID) {
        try? db.run("DELETE FROM conversations WHERE id = ?", [.text(id.uuidString)])
    }

    // MARK: Messages

    /// Stores a new message and returns it with its sequence number.
    @discardableResult
    public func append(_ message: ChatMessage) -> ChatMessage {
        var stored = message
        let attachments = Self.attachmentsJSON(message.attachments)
        try? db.run(
            "INSERT INTO messages (id, conversation, role, text, state, created, attachments) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .text(message.id.uuidString), .text(message.conversation.uuidString), .text(message.role.rawValue),
                .text(message.text), .text(message.state.rawValue), .real(message.created.timeIntervalSince1970), .text(attachments),
            ])
        stored.sequence = db.lastInsertedRow
        try? db.run(
            "UPDATE conversations SET updated = ? WHERE id = ?",
            [.real(message.created.timeIntervalSince1970), .text(message.conversation.uuidString)])
        return stored
    }

    public func update(_ id: UUID, text: String, state: ChatMessage.State) {
        streamingWriter?.drain()
        try? db.run("UPDATE messages SET text = ?, state = ? WHERE id = ?", [.text(text), .text(state.rawValue), .text(id.uuidString)])
    }

    public func update(_ id: UUID, state: ChatMessage.State) {
        streamingWriter?.drain()
        try? db.run("UPDATE messages SET state = ? WHERE id = ?", [.text(state.rawValue), .text(id.uuidString)])
    }

    /// Stores a streaming reply's text so far off the main thread (`StreamingReplyWriter`); the
    /// updates above wait for it first (a deleted reply stays deleted: its update finds no row).
    public func storeStreamingText(_ id: UUID, text: String) {
        // A second connection cannot reach a memory database: there the text is stored at once.
        guard path != Self.memory else { return update(id, text: text, state: .streaming) }
        if streamingWriter == nil { streamingWriter = StreamingReplyWriter(path: path) }
        streamingWriter?.store(id, text: text)
    }

    /// Returns once every streaming text handed over has been stored.
    public func finishStreamingWrites() { streamingWriter?.drain() }

    deinit { streamingWriter?.drain() }

    /// The newest `limit` messages of a conversation older than `before` (all when nil), oldest first.
    public func messages(in conversation: UUID, before: Int64?, limit: Int) -> [ChatMessage] {
        let rows =
            (try? db.query(
                "SELECT \(Self.columns) FROM messages WHERE conversation = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                [.text(conversation.uuidString), .int(before ?? Int64.max), .int(Int64(limit))], Self.message)) ?? []
        return rows.reversed()
    }

    /// Whether one of the newest 50 messages, in any conversation, is a reply: the first frame
    /// then likely shows Markdown. A range of sequence numbers, so it reads at most 50 rows.
    public func holdsRecentReplies() -> Bool {
        let sql = "SELECT EXISTS (SELECT 1 FROM messages WHERE seq > (SELECT IFNULL(MAX(seq), 0) FROM messages) - 50 AND role = 'assistant')"
        return (try? db.query(sql) { $0.int(0) })?.first == 1
    }

    public func messages(in conversation: UUID, after: Int64, limit: Int) -> [ChatMessage] {
        (try? db.query(
            "SELECT \(Self.columns) FROM messages WHERE conversation = ? AND seq > ? ORDER BY seq LIMIT ?",
            [.text(conversation.uuidString), .int(after), .int(Int64(limit))], Self.message)) ?? []
    }

    public func messageCount(in conversation: UUID) -> Int {
        Int((try? db.query("SELECT COUNT(*) FROM messages WHERE conversation = ?", [.text(conversation.uuidString)]) { $0.int(0) })?.first ?? 0)
    }

    /// User messages not yet handed to a socket, oldest first: the outbox.
    public func queued() -> [ChatMessage] {
        (try? db.query(Self.queuedMessages, [], Self.message)) ?? []
    }

    public func activity(since start: Date) -> ChatActivity {
        let since = start.timeIntervalSince1970
        let last = (try? db.query(Self.lastMessageTime) { $0.isNull(0) ? nil : Date(timeIntervalSince1970: $0.real(0)) })?.first ?? nil
        let sent = (try? db.query(Self.sentSince, [.real(since)]) { $0.int(0) })?.first ?? 0
        let replies = (try? db.query(Self.repliesSince, [.real(since)]) { $0.int(0) })?.first ?? 0
        return ChatActivity(lastMessage: last, messagesToday: Int(sent), repliesCompletedToday: Int(replies))
    }

    /// Runs `body` in one transaction (bulk imports and benchmarks).
    public func inTransaction(_ body: () -> Void) {
        try? db.execute("BEGIN")
        body()
        try? db.execute("COMMIT")
    }

    private static let columns = "seq, id, conversation, role, text, state, created, attachments"

    // Run at every start, send and turn's end, or each time today's activity is shown: each finds its
    // rows through an index (`messages_by_state`, `messages_by_created`), so its cost follows the rows
    // it is about, not the history's length (HistoryStoreTests reads their query plans).
    static let interruptStreaming = "UPDATE messages SET state = 'interrupted' WHERE state = 'streaming'"
    static let queuedMessages = "SELECT \(columns) FROM messages WHERE role = 'user' AND state = 'queued' ORDER BY seq"
    static let lastMessageTime = "SELECT MAX(created) FROM messages"
    static let sentSince = "SELECT COUNT(*) FROM messages INDEXED BY messages_by_created WHERE role = 'user' AND created >= ?"
    static let repliesSince =
        "SELECT COUNT(*) FROM messages INDEXED BY messages_by_created WHERE role = 'assistant' AND state = 'complete' AND created >= ?"
    static let statementsThatMustNotScan = [interruptStreaming, queuedMessages, lastMessageTime, sentSince, repliesSince]

    private static func message(_ r: SQLiteDatabase.Row) -> ChatMessage {
        let attachments = attachments(fromJSON: r.text(7))
        return ChatMessage(
            sequence: r.int(0), id: UUID(uuidString: r.text(1)) ?? UUID(),
            conversation: UUID(uuidString: r.text(2)) ?? UUID(),
            role: ChatMessage.Role(rawValue: r.text(3)) ?? .status, text: r.text(4),
            state: ChatMessage.State(rawValue: r.text(5)) ?? .complete,
            created: Date(timeIntervalSince1970: r.real(6)), attachments: attachments)
    }

    /// Most messages carry no attachment, stored as `[]`: those need no JSON coder, which each row
    /// read or written made one of.
    private static func attachmentsJSON(_ attachments: [ChatAttachment]) -> String {
        if attachments.isEmpty { return "[]" }
        return (try? JSONEncoder().encode(attachments)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    private static func attachments(fromJSON json: String) -> [ChatAttachment] {
        if json == "[]" { return [] }
        return (try? JSONDecoder().decode([ChatAttachment].self, from: Data(json.utf8))) ?? []
    }
}

extension HistoryStore {
    /// How far the search index has come (complete unless this file predates it and the backfill is running).
    public var searchIndexProgress: SearchIndexProgress {
        (try? SearchIndexProgress.read(db)) ?? .complete
    }
}
