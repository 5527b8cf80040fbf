import Foundation
import Testing

@testable import BuilderOSKit

/// The full-text index (real SQLite on temporary files): it stays equal to the messages, an old
/// history is indexed once without loss, and the search syntax does what the field's help says.
struct HistorySearchTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bos-search-\(UUID().uuidString)/history.sqlite3").path
    }

    func removeFolder(of path: String) { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }

    /// FTS5's own check, which with argument 1 also compares the index with every row of the content view.
    func indexMatchesMessages(_ store: HistoryStore) -> Bool {
        (try? store.db.run("INSERT INTO message_index (message_index, rank) VALUES ('integrity-check', 1)")) != nil
    }

    func texts(_ store: HistoryStore, _ query: String) -> [String] {
        store.search(SearchQuery(query)).map { $0.snippet.map(\.text).joined() }
    }

    @Test func theIndexFollowsInsertsStreamingEditsAndDeletes() throws {
        let store = HistoryStore.inMemory()
        let c = Conversation(agent: .jarvis, title: "Deploy")
        let other = Conversation(agent: .codex, title: "Other")
        store.insert(c)
        store.insert(other)
        store.append(ChatMessage(conversation: c.id, role: .user, text: "How do I deploy the gateway?", state: .sent))
        let reply = store.append(ChatMessage(conversation: c.id, role: .assistant, text: "Run", state: .streaming))
        store.append(ChatMessage(conversation: c.id, role: .status, text: "Jarvis could not answer the gateway", state: .complete))
        store.append(ChatMessage(conversation: other.id, role: .user, text: "gateway logs", state: .sent))
        #expect(indexMatchesMessages(store))
        #expect(store.search(SearchQuery("gateway")).count == 2, "the status pill is not indexed")

        store.update(reply.id, text: "Run `kubectl rollout restart` on the gateway", state: .streaming)
        store.update(reply.id, text: "Run `kubectl rollout restart` on the gateway, then watch it.", state: .complete)
        store.update(reply.id, state: .complete)
        #expect(indexMatchesMessages(store))
        #expect(store.search(SearchQuery("kubectl")).map(\.message) == [reply.id])
        #expect(store.search(SearchQuery("watch")).count == 1 && store.search(SearchQuery("Run")).count == 1)

        store.delete(other.id)
        #expect(indexMatchesMessages(store))
        #expect(store.search(SearchQuery("logs")).isEmpty && store.search(SearchQuery("gateway")).count == 2)
        store.delete(c.id)
        #expect(indexMatchesMessages(store) && store.search(SearchQuery("gateway")).isEmpty)
    }

    @Test func prefixesPhrasesExclusionsAndAccents() {
        let store = HistoryStore.inMemory()
        let c = Conversation(agent: .jarvis, title: "Notes")
        store.insert(c)
        for text in ["Mon résumé est prêt", "deploy the staging server", "the server is staging nothing", "Straße und Übung"] {
            store.append(ChatMessage(conversation: c.id, role: .user, text: text, state: .sent))
        }
        #expect(texts(store, "resume") == ["Mon résumé est prêt"], "accents fold")
        #expect(texts(store, "RÉSU") == ["Mon résumé est prêt"], "a prefix as typed, any case")
        #expect(texts(store, "ubung") == ["Straße und Übung"])
        #expect(Set(texts(store, "stag serv")).count == 2, "every word must match, each as a prefix")
        #expect(texts(store, "\"staging server\"") == ["deploy the staging server"], "a phrase in order")
        #expect(texts(store, "server -deploy") == ["the server is staging nothing"])
        #expect(texts(store, "server -\"staging server\"") == ["the server is staging nothing"])
        #expect(texts(store, "-server").isEmpty && SearchQuery("-server").expression == nil, "only exclusions find nothing")
        for hostile in ["\"", "AND", "NOT OR", "a\"b", "*", "(", "NEAR(a b)", "col:x", "- -", "\"unclosed phrase"] {
            _ = store.search(SearchQuery(hostile))  // FTS5 syntax in the input is searched for, never an error
            #expect(SearchQuery(hostile).expression.map { $0.hasPrefix("\"") || $0.hasPrefix("(") } ?? true, "\(hostile)")
        }
        #expect(texts(store, "\"unclosed phr").isEmpty && texts(store, "\"staging serv").isEmpty, "a phrase is not a prefix")
    }

    @Test func hitsAreNewestFirstWithMarkedSnippetsAndGroupByConversation() throws {
        let store = HistoryStore.inMemory()
        let old = Conversation(agent: .codex, title: "Old", created: Date(timeIntervalSince1970: 1000))
        let new = Conversation(agent: .jarvis, title: "New", created: Date(timeIntervalSince1970: 2000))
        store.insert(old)
        store.insert(new)
        store.append(
            ChatMessage(conversation: old.id, role: .user, text: "first backup plan", state: .sent, created: Date(timeIntervalSince1970: 1001)))
        store.append(
            ChatMessage(
                conversation: new.id, role: .assistant, text: "the backup is done", state: .complete, created: Date(timeIntervalSince1970: 2001)))
        store.append(
            ChatMessage(conversation: old.id, role: .assistant, text: "backup again", state: .complete, created: Date(timeIntervalSince1970: 3001)))
        let hits = store.search(SearchQuery("back"))
        #expect(hits.map(\.created.timeIntervalSince1970) == [3001, 2001, 1001])
        #expect(
            hits[1].snippet == [
                SnippetRun(text: "the ", matched: false), SnippetRun(text: "backup", matched: true), SnippetRun(text: " is done", matched: false),
            ])
        #expect(hits[1].conversationTitle == "New" && hits[1].agent == .jarvis && hits[1].role == .assistant)
        let groups = hits.grouped()
        #expect(groups.map(\.title) == ["Old", "New"] && groups[0].hits.count == 2)
        #expect(store.search(SearchQuery("back"), limit: 1).count == 1)
    }

    @Test func aSnippetCanBringItsMatchNearItsStart() {
        let far = HistorySearch.runs("…the logs of message 1234 were about the \u{1}résumé\u{2} and more")
        #expect(
            far.withMatchNearStart(context: 16) == [
                SnippetRun(text: "…were about the ", matched: false), SnippetRun(text: "résumé", matched: true),
                SnippetRun(text: " and more", matched: false),
            ])
        let near = HistorySearch.runs("the \u{1}backup\u{2} is done")
        #expect(near.withMatchNearStart(context: 16) == near)
        let none = HistorySearch.runs("no match marked")
        #expect(none.withMatchNearStart(context: 4) == none)
    }

    /// A history written before the index existed: opening it adds the index at once, the backfill
    /// indexes the old rows in batches while new messages arrive and old ones change, and a second
    /// start has nothing left to do.
    @Test func anOldHistoryIsIndexedOnceWithoutLoss() throws {
        let path = temporaryPath()
        defer { removeFolder(of: path) }
        let c = Conversation(agent: .jarvis, title: "Old")
        try writeHistoryOfTheReleaseBefore(at: path, conversation: c, messages: 1_234)

        let store = try HistoryStore(path: path)
        #expect(store.messageCount(in: c.id) == 1_234 && store.conversations().map(\.title) == ["Old"])
        #expect(!store.searchIndexProgress.isComplete)
        // While pending: a new message is indexed at once; an old one changed or deleted is left to the backfill.
        store.append(ChatMessage(conversation: c.id, role: .user, text: "brand new needle", state: .sent))
        let old = store.messages(in: c.id, before: nil, limit: 2_000)
        store.update(old[3].id, text: "old needle, edited", state: .complete)

        let db = try SQLiteDatabase(path: path)
        var progress: [Double] = []
        while true {
            let step = try SearchIndexBackfill.step(db)
            progress.append(step.fraction)
            if step.isComplete { break }
        }
        #expect(progress.count == 3 && progress == progress.sorted(), "1,234 rows in batches of 500: \(progress)")
        #expect(indexMatchesMessages(store))
        #expect(texts(store, "needle").count == 2 && texts(store, "message 1233").count == 1)
        #expect(store.search(SearchQuery("message"), limit: 5_000).count == 1_233, "every old message but the edited one")

        let reopened = try HistoryStore(path: path)
        #expect(reopened.searchIndexProgress.isComplete)
        var calls = 0
        try SearchIndexBackfill.run(path: path) { _ in calls += 1 }
        #expect(calls == 0, "a second start indexes nothing")
        #expect(reopened.messageCount(in: c.id) == 1_235)
    }

    /// The schema of release 0.5.0 (before the index), written directly, as that release wrote it.
    func writeHistoryOfTheReleaseBefore(at path: String, conversation: Conversation, messages: Int) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let db = try SQLiteDatabase(path: path)
        try db.execute(HistorySchema.connection)
        try db.execute(HistorySchema.tables)
        #expect(try db.query("PRAGMA user_version") { $0.int(0) }.first == 0)
        try db.execute("BEGIN")
        try db.run(
            "INSERT INTO conversations (id, agent, title, created, updated) VALUES (?, 'jarvis', ?, 0, 0)",
            [.text(conversation.id.uuidString), .text(conversation.title)])
        for n in 0..<messages {
            try db.run(
                "INSERT INTO messages (id, conversation, role, text, state, created) VALUES (?, ?, ?, ?, 'complete', ?)",
                [
                    .text(UUID().uuidString), .text(conversation.id.uuidString), .text(n % 2 == 0 ? "user" : "assistant"),
                    .text("message \(n) about résumé"), .real(Double(n)),
                ])
        }
        try db.execute("COMMIT")
    }

    @Test func theWindowsSearcherDropsOverTakenQueries() async throws {
        let path = temporaryPath()
        defer { removeFolder(of: path) }
        let store = try HistoryStore(path: path)
        let c = Conversation(agent: .jarvis, title: "T")
        store.insert(c)
        store.append(ChatMessage(conversation: c.id, role: .user, text: "alpha beta", state: .sent))
        let searcher = try HistorySearcher(path: path)
        let answers = await withCheckedContinuation { (done: CheckedContinuation<[[String]], Never>) in
            Task { @MainActor in
                var answers: [[String]] = []
                for typed in ["a", "al", "alp"] {
                    searcher.search(SearchQuery(typed)) { hits in
                        answers.append(hits.map { $0.snippet.map(\.text).joined() })
                        done.resume(returning: answers)
                    }
                }
            }
        }
        #expect(answers == [["alpha beta"]], "only the newest query answers")
    }
}
