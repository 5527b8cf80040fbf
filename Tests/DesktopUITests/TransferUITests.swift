import BuilderOSKit
import Foundation
import ProcessHarness
import Testing

/// Export and import through the window and the file chooser (TransferScenario).
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service and display that meson-helpers/run-tests starts"))
struct TransferUITests {
    @Test(arguments: Display.allCases) func exportAndImport(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        let history = try HistoryStore(path: sandbox.root.appendingPathComponent("data/builderos-desktop/history.sqlite3").path)
        let notes = Conversation(agent: .codex, title: "Notes", created: Date(timeIntervalSince1970: 1_600_000_000))
        let deploy = Conversation(agent: .jarvis, title: "Deploy", created: Date(timeIntervalSince1970: 1_700_000_000))
        history.insert(notes)
        history.insert(deploy)
        history.append(ChatMessage(conversation: notes.id, role: .user, text: "a note", state: .sent, created: notes.created))
        history.append(ChatMessage(conversation: deploy.id, role: .user, text: "how do I deploy?", state: .sent, created: deploy.created))
        history.append(
            ChatMessage(
                conversation: deploy.id, role: .assistant, text: "Run:\n\n```sh\nmake deploy\n```", state: .complete,
                created: deploy.created + 60))

        // What another computer exported: one conversation this history does not have, and a message of Deploy written
        // there, older than this history's reply.
        let other = HistoryStore.inMemory()
        other.insert(deploy)
        other.append(ChatMessage(conversation: deploy.id, role: .user, text: "a note from the laptop", state: .sent, created: deploy.created + 30))
        let away = Conversation(agent: .jarvis, title: "Imported from another computer", created: Date(timeIntervalSince1970: 1_650_000_000))
        other.insert(away)
        other.append(ChatMessage(conversation: away.id, role: .user, text: "hello from there", state: .sent, created: away.created))
        let folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let importFile = folder.appendingPathComponent("from-elsewhere.json")
        let exported = other.exportDocument().encoded()
        try exported.write(to: importFile)
        let broken = folder.appendingPathComponent("broken.json")
        try exported.prefix(exported.count / 2).write(to: broken)

        _ = try await UIScenario.run(
            "TransferScenario.transfer", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            options: ["folder": folder.path, "import": importFile.path, "broken": broken.path])
        #expect(try HistoryStore(path: history.path).conversations().count == 3, "the import was stored")
        UIScenario.screenshotsExist("TransferScenario.transfer", ["imported", "refused"], on: display, minimumBytes: 3_000)
    }
}
