import Foundation

/// What the chat service needs of the history and outbox. `HistoryStore` keeps it in SQLite;
/// `HistoryStore.inMemory()` is the same store without a file (the core's tests).
public protocol HistoryStoring: AnyObject {
    func conversations() -> [Conversation]
    /// Changes when another connection (the CLI's, another process's) has written the history since
    /// it was last read; this store's own writes leave it alone (SQLite's `data_version`).
    func writtenElsewhereStamp() -> Int64
    func insert(_ conversation: Conversation)
    func rename(_ id: UUID, to title: String)
    func saveDraft(_ id: UUID, _ draft: String)
    /// Deletes the conversation and all its messages.
    func delete(_ id: UUID)

    /// Stores a new message and returns it with its sequence number.
    @discardableResult func append(_ message: ChatMessage) -> ChatMessage
    func update(_ id: UUID, text: String, state: ChatMessage.State)
    func update(_ id: UUID, state: ChatMessage.State)
    /// A streaming reply's text so far, stored without holding up the caller where the store can;
    /// later updates of the reply land after it.
    func storeStreamingText(_ id: UUID, text: String)
    /// The newest `limit` messages of a conversation older than `before` (all when nil), oldest first.
    func messages(in conversation: UUID, before: Int64?, limit: Int) -> [ChatMessage]
    /// The oldest `limit` messages of a conversation newer than `after`, oldest first.
    func messages(in conversation: UUID, after: Int64, limit: Int) -> [ChatMessage]
    func messageCount(in conversation: UUID) -> Int
    /// User messages not yet handed to a socket, oldest first: the outbox.
    func queued() -> [ChatMessage]
    func activity(since start: Date) -> ChatActivity

    /// The conversations `ids` (all when nil) with every message, as the JSON export holds them.
    func exportDocument(of ids: [UUID]?, server: String?, now: Date) -> HistoryExportDocument
    /// Every message of a conversation, oldest first.
    func allMessages(in conversation: UUID) -> [ChatMessage]
    /// Merges an export by id, in one transaction.
    @discardableResult func importHistory(_ document: HistoryExportDocument) throws(BuilderOSError) -> HistoryImportSummary
}

extension HistoryStoring {
    public func storeStreamingText(_ id: UUID, text: String) { update(id, text: text, state: .streaming) }

    /// The newest 100 messages, oldest first.
    public func messages(in conversation: UUID) -> [ChatMessage] { messages(in: conversation, before: nil, limit: 100) }
    /// The newest `limit` messages, oldest first.
    public func messages(in conversation: UUID, limit: Int) -> [ChatMessage] { messages(in: conversation, before: nil, limit: limit) }
}
