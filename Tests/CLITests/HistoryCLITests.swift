import Foundation
import ProcessHarness
import Testing

@testable import BuilderOSKit

/// `builderos history …` end to end: the real CLI on a history file in the sandbox's data folder.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the settings schema and session that meson-helpers/run-tests sets up"))
struct HistoryCLITests {
    func historyPath(_ sandbox: CLISandbox) -> String {
        sandbox.root.appendingPathComponent("data/builderos-desktop/history.sqlite3").path
    }

    /// Two conversations: one with an accented word, a code block and a hostile escape; one older.
    func seed(_ sandbox: CLISandbox) throws -> (deploy: Conversation, notes: Conversation) {
        let store = try HistoryStore(path: historyPath(sandbox))
        let notes = Conversation(agent: .codex, title: "Notes", created: Date(timeIntervalSince1970: 1_600_000_000))
        let deploy = Conversation(agent: .jarvis, title: "Deploy", created: Date(timeIntervalSince1970: 1_700_000_000))
        store.insert(notes)
        store.insert(deploy)
        store.append(ChatMessage(conversation: notes.id, role: .user, text: "my résumé draft", state: .sent, created: notes.created))
        store.append(ChatMessage(conversation: deploy.id, role: .user, text: "how do I deploy?", state: .sent, created: deploy.created))
        store.append(
            ChatMessage(
                conversation: deploy.id, role: .assistant, text: "Run this:\n\n```sh\nmake deploy\n```\n\u{1B}]52;c;aGk=\u{07} resume later",
                state: .complete, created: deploy.created.addingTimeInterval(60)))
        return (deploy, notes)
    }

    @Test func listSearchExportAndImportTwice() async throws {
        let sandbox = try CLISandbox()
        let (deploy, notes) = try seed(sandbox)

        let list = try await sandbox.run(["history", "list"])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").map { $0.hasSuffix("Deploy") || $0.hasSuffix("Notes") } == [true, true])
        #expect(list.stdout.hasPrefix(deploy.id.uuidString.prefix(8).lowercased()) && list.stdout.contains("2 messages"))
        let listedJSON = try await sandbox.run(["history", "list", "--json"])
        #expect(listedJSON.status == 0, "\(listedJSON.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(listedJSON.stdout.utf8)) as? [String: Any])
        #expect((listed["conversations"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Deploy", "Notes"])

        let search = try await sandbox.run(["history", "search", "resume"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("Deploy  (Jarvis") && search.stdout.contains("Notes  (Codex") && search.stdout.contains("my résumé draft"))
        #expect(search.stdout.contains("\\u{1B}]52") && !search.stdout.contains("\u{1B}"), "a server's escape is shown, never acted on")
        #expect(search.stdout.range(of: "Deploy")!.lowerBound < search.stdout.range(of: "Notes")!.lowerBound, "newest first")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await sandbox.run(["history", "search", "--json", "resum", "-draft"]).stdout.utf8))
                as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == 1 && results[0]["conversation_title"] as? String == "Deploy" && results[0]["matched"] as? [String] == ["resume"])
        #expect(try await sandbox.run(["history", "search", "-draft"]).status == 2, "only an exclusion is a usage error")
        let none = try await sandbox.run(["history", "search", "kubernetes"])
        #expect(none.status == 0 && none.stdout.contains("No messages found"))

        // Markdown: one file per conversation in a folder; one conversation by the start of its id.
        let folder = sandbox.root.appendingPathComponent("markdown").path
        #expect(try await sandbox.run(["history", "export", "--format", "markdown", "--output", folder]).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count == 2 && files.allSatisfy { $0.hasSuffix(").md") })
        let one = try await sandbox.run(["history", "export", "--format", "markdown", "--conversation", String(deploy.id.uuidString.prefix(6))])
        #expect(one.stdout.hasPrefix("# Deploy\n") && one.stdout.contains("```sh\nmake deploy\n```") && !one.stdout.contains("Notes"))
        #expect(try await sandbox.run(["history", "export", "--conversation", "zzzz"]).status == 2)

        // JSON to another computer (another sandbox), twice: the second import adds nothing.
        let backup = sandbox.root.appendingPathComponent("backup.json").path
        let export = try await sandbox.run(["history", "export", "--output", backup])
        #expect(export.status == 0 && export.stderr.contains("Exported 2 conversations"))
        let permissions = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "the history is private")
        let other = try CLISandbox()
        let first = try await other.run(["history", "import", backup])
        #expect(
            first.status == 0 && first.stdout == "New conversations: 2\nNew messages: 3\nMessages already here: 0\n", "\(first.stdout)\(first.stderr)"
        )
        let second = try await other.run(["history", "import", backup])
        #expect(second.stdout == "New conversations: 0\nNew messages: 0\nMessages already here: 3\n")
        let imported = try HistoryStore(path: historyPath(other))
        #expect(imported.conversations().map(\.id) == [deploy.id, notes.id] && imported.allMessages(in: deploy.id).count == 2)
        #expect(try await other.run(["history", "search", "make"]).stdout.contains("Deploy"))
    }

    @Test func aBadFileIsRefusedAndChangesNothing() async throws {
        let sandbox = try CLISandbox()
        _ = try seed(sandbox)
        let backup = sandbox.root.appendingPathComponent("backup.json")
        _ = try await sandbox.run(["history", "export", "--output", backup.path])
        let text = try String(contentsOf: backup, encoding: .utf8)
        let other = try CLISandbox()
        let cases: [(String, String)] = [
            (String(text.prefix(text.count / 2)), "not complete JSON"),
            (text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 7"), "newer BuilderOS Desktop (format 7)"),
            (text.replacingOccurrences(of: "\"role\" : \"user\"", with: "\"role\" : 5"), "“conversations[0].messages[0].role”"),
        ]
        for (content, reason) in cases {
            try content.write(to: backup, atomically: true, encoding: .utf8)
            let result = try await other.run(["history", "import", backup.path])
            #expect(result.status == 1 && result.stderr.contains(reason) && result.stderr.contains("Nothing was imported"), "\(result.stderr)")
        }
        #expect(try HistoryStore(path: historyPath(other)).conversations().isEmpty)
        let missing = try await other.run(["history", "import", "/nonexistent/backup.json"])
        #expect(missing.status == 1 && missing.stderr.contains("cannot be read"))
    }

    /// A history written by the release before the index: the first search indexes it, once.
    @Test func searchIndexesAnOlderHistoryFirst() async throws {
        let sandbox = try CLISandbox()
        let path = historyPath(sandbox)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let db = try SQLiteDatabase(path: path)
        try db.execute(HistorySchema.connection)
        try db.execute(HistorySchema.tables)
        let id = UUID().uuidString
        // One transaction: 1,200 commits would hold one of Swift's two cooperative threads for seconds.
        try db.execute("BEGIN")
        try db.run("INSERT INTO conversations (id, agent, title, created, updated) VALUES (?, 'jarvis', 'Old', 0, 0)", [.text(id)])
        for n in 0..<1_200 {
            try db.run(
                "INSERT INTO messages (id, conversation, role, text, state, created) VALUES (?, ?, 'user', ?, 'sent', ?)",
                [.text(UUID().uuidString), .text(id), .text(n == 7 ? "the needle" : "hay \(n)"), .real(Double(n))])
        }
        try db.execute("COMMIT")
        let found = try await sandbox.run(["history", "search", "needle"])
        #expect(found.status == 0 && found.stdout.contains("the needle"), "\(found.stderr)")
        #expect(try HistoryStore(path: path).searchIndexProgress.isComplete)
        #expect(try await sandbox.run(["history", "search", "--limit", "1000", "hay"]).stdout.components(separatedBy: "\n").count > 1_000)
    }
}
