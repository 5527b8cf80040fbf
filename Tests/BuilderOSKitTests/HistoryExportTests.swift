import Foundation
import Testing

@testable import BuilderOSKit

/// Export and import: lossless JSON, readable Markdown, merges by id, and a bad file changes nothing.
struct HistoryExportTests {
    func sampleStore() -> (HistoryStore, Conversation) {
        let store = HistoryStore.inMemory()
        let c = Conversation(agent: .codex, title: "Deploy: the\nplan", created: Date(timeIntervalSince1970: 1_700_000_000))
        store.insert(c)
        let attachment = ChatAttachment(id: "a1", filename: "log.txt", mimeType: "text/plain", size: 42, type: "file", url: "/api/uploads/a1")
        store.append(
            ChatMessage(
                conversation: c.id, role: .user, text: "How?", state: .sent, created: Date(timeIntervalSince1970: 1_700_000_060.125),
                attachments: [attachment]))
        store.append(
            ChatMessage(
                conversation: c.id, role: .assistant, text: "Run:\n\n```sh\nmake deploy\n```", state: .complete,
                created: Date(timeIntervalSince1970: 1_700_000_120)))
        store.append(
            ChatMessage(
                conversation: c.id, role: .status, text: "Codex could not answer", state: .complete,
                created: Date(timeIntervalSince1970: 1_700_000_180)))
        store.append(
            ChatMessage(
                conversation: c.id, role: .assistant, text: "Cut off:\n```\nhalf", state: .interrupted,
                created: Date(timeIntervalSince1970: 1_700_000_240)))
        store.append(ChatMessage(conversation: c.id, role: .user, text: "later", state: .queued, created: Date(timeIntervalSince1970: 1_700_000_300)))
        return (store, c)
    }

    @Test func jsonIsLosslessAndImportsIntoAnotherHistoryTwiceWithoutDuplicates() throws {
        let (store, c) = sampleStore()
        let document = store.exportDocument(server: "https://builderos.example.com", now: Date(timeIntervalSince1970: 1_800_000_000))
        let data = document.encoded()
        #expect(try HistoryImport.decode(data) == document, "what is written is read back exactly")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"format\" : \"builderos-desktop-history\"") && text.contains("1700000060.125") && text.contains("log.txt"))

        let other = HistoryStore.inMemory()
        let first = try other.importHistory(HistoryImport.decode(data))
        #expect(first == HistoryImportSummary(conversationsAdded: 1, messagesAdded: 5, messagesAlreadyThere: 0))
        let again = try other.importHistory(HistoryImport.decode(data))
        #expect(again == HistoryImportSummary(conversationsAdded: 0, messagesAdded: 0, messagesAlreadyThere: 5))
        let imported = other.allMessages(in: c.id)
        let original = store.allMessages(in: c.id)
        #expect(imported.map(\.id) == original.map(\.id) && imported.map(\.text) == original.map(\.text))
        #expect(imported.map(\.created) == original.map(\.created) && imported[0].attachments == original[0].attachments)
        #expect(other.conversations().first?.title == c.title && other.conversations().first?.agent == .codex)
        #expect(imported.last?.state == .failed && other.queued().isEmpty, "an imported outbox message is never sent by itself")
        #expect(other.search(SearchQuery("deploy")).count == 1, "imported messages are searchable")

        // A newer message added to the source is the only thing a later import adds.
        store.append(ChatMessage(conversation: c.id, role: .user, text: "one more", state: .sent))
        let third = try other.importHistory(HistoryImport.decode(store.exportDocument().encoded()))
        #expect(third.messagesAdded == 1 && third.messagesAlreadyThere == 5 && other.allMessages(in: c.id).count == 6)
    }

    /// One conversation continued on two computers: each has messages the other lacks. Merged, the older ones take
    /// their place among those already here (the conversation reads in the order it was written), the index
    /// follows, and importing again changes nothing.
    @Test func mergedMessagesTakeTheirPlaceInTheConversation() throws {
        let at = { (seconds: Double) in Date(timeIntervalSince1970: 1_700_000_000 + seconds) }
        let c = Conversation(agent: .jarvis, title: "Deploy", created: at(0))
        let here = HistoryStore.inMemory()
        let there = HistoryStore.inMemory()
        let question = ChatMessage(conversation: c.id, role: .user, text: "first question", state: .sent, created: at(100))
        for store in [here, there] {
            store.insert(c)
            store.append(question)
        }
        there.append(ChatMessage(conversation: c.id, role: .assistant, text: "an answer from the laptop", state: .complete, created: at(200)))
        here.append(ChatMessage(conversation: c.id, role: .user, text: "a later question", state: .sent, created: at(300)))
        let document = try HistoryImport.decode(there.exportDocument().encoded())

        let merged = try here.importHistory(document)
        #expect(merged.messagesAdded == 1 && merged.conversationsGrown == [c.id])
        let order = ["first question", "an answer from the laptop", "a later question"]
        #expect(here.allMessages(in: c.id).map(\.text) == order)
        #expect(here.messages(in: c.id, before: nil, limit: 2).map(\.text) == Array(order.suffix(2)), "the newest page too")
        #expect(HistorySearchTests().indexMatchesMessages(here) && here.search(SearchQuery("laptop")).count == 1)

        let again = try here.importHistory(document)
        #expect(again.messagesAdded == 0 && again.conversationsGrown.isEmpty && here.allMessages(in: c.id).map(\.text) == order)

        // Messages newer than every one here are only appended: the others keep their numbers.
        let numbers = here.allMessages(in: c.id).map(\.sequence)
        there.append(ChatMessage(conversation: c.id, role: .assistant, text: "the newest", state: .complete, created: at(400)))
        _ = try here.importHistory(HistoryImport.decode(there.exportDocument().encoded()))
        #expect(Array(here.allMessages(in: c.id).map(\.sequence).prefix(3)) == numbers)
        #expect(here.allMessages(in: c.id).last?.text == "the newest")
    }

    @Test func markdownReadsAsAConversationAndKeepsCodeBlocks() {
        let (store, c) = sampleStore()
        let utc = TimeZone(identifier: "UTC")!
        let markdown = HistoryMarkdown.render(store.conversations()[0], messages: store.allMessages(in: c.id), timeZone: utc)
        #expect(markdown.hasPrefix("# Deploy: the plan\n\n- Agent: Codex\n- Started: 2023-11-14 22:13\n- Last message: 2023-11-14 22:18\n"))
        #expect(markdown.contains("**You** · 2023-11-14 22:14\n\nHow?"))
        #expect(markdown.contains("**Codex** · 2023-11-14 22:15\n\nRun:\n\n```sh\nmake deploy\n```\n"))
        #expect(markdown.contains("_Codex could not answer_ · 2023-11-14 22:16"))
        #expect(markdown.contains("**Codex** · 2023-11-14 22:17 · _interrupted_\n\nCut off:\n```\nhalf\n```\n"), "an open fence is closed")
        #expect(markdown.contains("**You** · 2023-11-14 22:18 · _not sent_"))
        #expect(HistoryMarkdown.fileName(for: c, timeZone: utc) == "2023-11-14 Deploy the plan (\(c.id.uuidString.prefix(8).lowercased())).md")
        let slashes = Conversation(agent: .jarvis, title: "a/b\\c: *?", created: c.created)
        #expect(!HistoryMarkdown.fileName(for: slashes).dropLast(3).contains { "/\\:*?".contains($0) })
    }

    @Test func badFilesAreRefusedWholeWithTheReason() throws {
        let (store, _) = sampleStore()
        let good = String(decoding: store.exportDocument().encoded(), as: UTF8.self)
        func refusal(_ text: String) -> HistoryImportProblem? {
            do {
                _ = try HistoryImport.decode(Data(text.utf8))
                return nil
            } catch {
                if case .historyImportRefused(let problem) = error { return problem }
                return nil
            }
        }
        #expect(refusal(String(good.prefix(good.count / 2))) == .notJSON, "truncated")
        #expect(refusal("") == .notJSON && refusal("\u{89}PNG") == .notJSON)
        #expect(refusal("[1, 2]") == .notAnExport && refusal("{\"format\": \"other\", \"version\": 1}") == .notAnExport)
        #expect(refusal(good.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2")) == .newerFormat(version: 2))
        #expect(
            refusal(good.replacingOccurrences(of: "\"state\" : \"complete\"", with: "\"state\" : \"exploded\""))
                == .invalidField("conversations[0].messages[1].state"))
        #expect(
            refusal(good.replacingOccurrences(of: "\"created\" : 1700000120", with: "\"created\" : \"yesterday\""))
                == .invalidField("conversations[0].messages[1].created"))
        #expect(refusal(good.replacingOccurrences(of: "\"title\"", with: "\"name\"")) == .invalidField("conversations[0].title"))
        #expect(HistoryImportProblem.invalidField("x").message.contains("“x”"))

        let target = HistoryStore.inMemory()
        var document = store.exportDocument()
        document.conversations.append(document.conversations[0])
        document.conversations[1].id = UUID()
        for index in 1..<document.conversations[1].messages.count { document.conversations[1].messages[index].id = UUID() }
        // Its first message keeps the id of one already imported: the same id twice is one message.
        _ = try target.importHistory(document)
        #expect(target.conversations().count == 2 && target.allMessages(in: document.conversations[1].id).count == 4)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: UInt64(HistoryImport.maximumBytes) + 1)  // sparse: no disk used
        try handle.close()
        #expect(throws: BuilderOSError.historyImportRefused(.tooLarge(bytes: HistoryImport.maximumBytes + 1))) {
            try HistoryImport.read(fileAt: huge)
        }
        #expect(throws: BuilderOSError.fileUnreadable(path: folder.path)) { try HistoryImport.read(fileAt: folder.path) }
    }

    @Test func aFailedImportLeavesTheHistoryAsItWas() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bos-import-\(UUID().uuidString)/history.sqlite3").path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let (source, _) = sampleStore()
        let target = try HistoryStore(path: path)
        var document = source.exportDocument()
        // A second conversation whose agent the database would accept but whose message text is made
        // unwritable: a trigger that fails mid-import stands in for a full disk.
        document.conversations.append(
            HistoryExportDocument.Conversation(
                id: UUID(), agent: .jarvis, title: "Second", created: 0, updated: 0, draft: "",
                messages: [.init(id: UUID(), role: .user, text: "boom", state: .sent, created: 0, attachments: [])]))
        try target.db.execute(
            "CREATE TEMP TRIGGER fail BEFORE INSERT ON messages WHEN new.text = 'boom' BEGIN SELECT RAISE(ABORT, 'disk full'); END;")
        #expect(throws: BuilderOSError.self) { try target.importHistory(document) }
        #expect(target.conversations().isEmpty && target.search(SearchQuery("deploy")).isEmpty, "nothing of the file stayed")
    }

    /// `builderos history import` while the app runs: the app's store sees another connection's write
    /// (SQLite's data_version), not its own, and shows the conversations when it catches up.
    @MainActor @Test func anImportByAnotherProcessShowsWhenTheAppCatchesUp() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-catch-up-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("history.sqlite3").path
        let rig = ChatRig(history: try HistoryStore(path: path))
        let cli = try HistoryStore(path: path)
        #expect(!rig.chat.catchUpWithOtherWriters(), "nothing written elsewhere")
        _ = rig.chat.createConversation(agent: .jarvis)
        #expect(!rig.chat.catchUpWithOtherWriters(), "its own writes are not news")
        let (sample, conversation) = sampleStore()
        try cli.importHistory(HistoryImport.decode(sample.exportDocument().encoded()))
        #expect(rig.chat.catchUpWithOtherWriters())
        #expect(rig.chat.conversations.map(\.id).contains(conversation.id) && rig.chat.conversations.count == 2)
        #expect(rig.events.all.contains(.conversationsChanged))
        #expect(!rig.chat.catchUpWithOtherWriters(), "once")
    }
}
