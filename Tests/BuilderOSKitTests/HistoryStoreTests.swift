import Foundation
import Testing

@testable import BuilderOSKit

/// The history file itself (real SQLite on a temporary file): what the app finds after a restart.
struct HistoryStoreTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("bos-history-\(UUID().uuidString)/history.sqlite3").path
    }

    @Test func conversationsMessagesAndTheOutboxSurviveReopening() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try HistoryStore(path: path)
        let c = Conversation(agent: .codex, title: "Codex")
        store.insert(c)
        store.rename(c.id, to: "Deploy plan")
        store.saveDraft(c.id, "half a thought")
        let sent = store.append(ChatMessage(conversation: c.id, role: .user, text: "sent", state: .sent))
        let queued = store.append(ChatMessage(conversation: c.id, role: .user, text: "queued", state: .queued))
        let reply = store.append(ChatMessage(conversation: c.id, role: .assistant, text: "par", state: .streaming))
        store.update(reply.id, text: "partial", state: .interrupted)
        #expect(sent.sequence < queued.sequence && queued.sequence < reply.sequence)

        let reopened = try HistoryStore(path: path)
        let found = try #require(reopened.conversations().first)
        #expect(found.title == "Deploy plan" && found.draft == "half a thought" && found.agent == .codex)
        #expect(reopened.messages(in: c.id).map(\.text) == ["sent", "queued", "partial"])
        #expect(reopened.messages(in: c.id).last?.state == .interrupted)
        #expect(reopened.queued().map(\.id) == [queued.id])
        #expect(reopened.messages(in: c.id, before: reply.sequence, limit: 1).map(\.text) == ["queued"])
        // The other way (a list that dropped its newest loads them again): the oldest after, oldest first.
        #expect(reopened.messages(in: c.id, after: sent.sequence, limit: 1).map(\.text) == ["queued"])
        #expect(reopened.messages(in: c.id, after: sent.sequence, limit: 5).map(\.text) == ["queued", "partial"])
        #expect(reopened.messages(in: c.id, after: reply.sequence, limit: 5).isEmpty)

        reopened.delete(c.id)
        let afterDelete = try HistoryStore(path: path)
        #expect(afterDelete.conversations().isEmpty && afterDelete.queued().isEmpty)
        #expect(afterDelete.messageCount(in: c.id) == 0)
    }

    /// What a second instance of the app does before it hands its launch over: it opens the file too
    /// (`HistoryOpening`), and must not end the reply the first instance is streaming.
    @Test func openingChangesNoRowAndTheAppsOpeningEndsAnInterruptedStream() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let first = try HistoryStore(opening: path)
        #expect(FileManager.default.fileExists(atPath: path), "the file and its tables are made")
        let c = Conversation(agent: .jarvis, title: "Jarvis")
        first.insert(c)
        let reply = first.append(ChatMessage(conversation: c.id, role: .assistant, text: "stream", state: .streaming))

        let second = try HistoryStore(opening: path)
        #expect(second.messages(in: c.id).map(\.state) == [.streaming])
        #expect(first.messages(in: c.id).map(\.state) == [.streaming])

        try second.interruptStreamingReplies()
        #expect(first.messages(in: c.id).map(\.state) == [.interrupted])
        #expect(try HistoryStore(path: path).messages(in: c.id).first?.id == reply.id)
    }

    /// A streaming reply's text is stored off the main thread (`StreamingReplyWriter`): the newest
    /// text lands, with its search index, and the reply's final update is never overwritten by it.
    @Test func aStreamingReplysTextLandsAndItsFinalTextWins() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try HistoryStore(path: path)
        let c = Conversation(agent: .jarvis, title: "Jarvis")
        store.insert(c)
        let reply = store.append(ChatMessage(conversation: c.id, role: .assistant, text: "", state: .streaming))
        let words = (0..<400).map { "word\($0)" }
        for count in 1...words.count { store.storeStreamingText(reply.id, text: words.prefix(count).joined(separator: " ")) }
        store.finishStreamingWrites()

        let elsewhere = try HistoryStore(opening: path)
        #expect(elsewhere.messages(in: c.id).first?.text == words.joined(separator: " "), "the newest text landed")
        #expect(elsewhere.messages(in: c.id).first?.state == .streaming)
        #expect(elsewhere.search(SearchQuery("word399")).map(\.message) == [reply.id], "with its search index")

        for round in 0..<20 {
            for count in 1...50 { store.storeStreamingText(reply.id, text: "round \(round) part \(count)") }
            store.update(reply.id, text: "final \(round)", state: .complete)
            store.finishStreamingWrites()
            let stored = elsewhere.messages(in: c.id).first
            #expect(stored?.text == "final \(round)" && stored?.state == .complete, "the final update is the last write")
        }
        store.storeStreamingText(reply.id, text: "late")
        store.delete(c.id)
        #expect(try HistoryStore(opening: path).messageCount(in: c.id) == 0, "a text handed over before a deletion does not bring the reply back")
    }

    /// A text handed over after the history was deleted (a forgotten server's) makes no empty file.
    @Test func theWriterNeverMakesAFile() {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let writer = StreamingReplyWriter(path: path)
        writer.store(UUID(), text: "too late")
        writer.drain()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// The conversations are the user's alone, whatever the umask, the folder or an earlier version left.
    /// Whether the window about to open will likely show a reply (it then loads cmark-gfm beside its building).
    @Test func aReplyAmongTheNewestFiftyMessagesIsNoticed() {
        let store = HistoryStore.inMemory()
        #expect(!store.holdsRecentReplies(), "an empty history")
        let c = Conversation(agent: .jarvis, title: "T")
        store.insert(c)
        store.append(ChatMessage(conversation: c.id, role: .assistant, text: "an old reply", state: .complete))
        #expect(store.holdsRecentReplies())
        for n in 0..<50 { store.append(ChatMessage(conversation: c.id, role: .user, text: "question \(n)", state: .sent)) }
        #expect(!store.holdsRecentReplies(), "the reply is older than the newest 50")
        store.append(ChatMessage(conversation: c.id, role: .assistant, text: "a new reply", state: .complete))
        #expect(store.holdsRecentReplies())
    }

    @Test func theHistoryAndItsCompanionsAreReadableByTheUserAlone() throws {
        let path = temporaryPath()
        let folder = (path as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A folder made by someone else, open to all (under the usual umask, SQLite alone makes 0644 files).
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let store = try HistoryStore(path: path)
        let c = Conversation(agent: .jarvis, title: "Private")
        store.insert(c)
        _ = store.append(ChatMessage(conversation: c.id, role: .user, text: "secret plans", state: .sent))
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            #expect(try mode(path + suffix) == 0o600, "history\(suffix)")
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the log exists while the store is open")

        // A file an earlier version left readable by all is narrowed when it is opened, its messages kept.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            #expect(chmod(path + suffix, 0o644) == 0)
        }
        let reopened = try HistoryStore(path: path)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            #expect(try mode(path + suffix) == 0o600, "history\(suffix) after reopening")
        }
        #expect(reopened.messages(in: c.id).map(\.text) == ["secret plans"])
    }
}

/// What runs at every start, send and turn's end must not read the whole history: with 10,000
/// messages each full scan took 7–10 ms on the main thread, growing with the history.
struct HistoryIndexTests {
    @Test func everyFrequentStatementFindsItsRowsThroughAnIndex() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("history.sqlite3").path
        _ = try HistoryStore(path: path)
        let db = try SQLiteDatabase(path: path)
        for statement in HistoryStore.statementsThatMustNotScan {
            let plan = try db.query("EXPLAIN QUERY PLAN " + statement, statement.contains("?") ? [.real(0)] : []) { $0.text(3) }
            #expect(!plan.isEmpty && plan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(statement): \(plan)")
        }
    }
}
