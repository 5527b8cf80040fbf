import BuilderOSKit
import Foundation
import ProcessHarness
import Testing

/// Search across conversations in the window (SearchScenario), on a seeded history: a 10,000-message
/// conversation with the word deep inside, and a newer conversation that has it too.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service and display that meson-helpers/run-tests starts"))
struct SearchUITests {
    /// Seeds on a thread of its own (`offThePool`): 10,000 inserts would hold one of Swift's two cooperative
    /// threads for seconds, and the in-process servers of other suites would starve.
    func seed(_ sandbox: CLISandbox) async throws {
        try await offThePool { try Self.seed(at: sandbox.root.appendingPathComponent("data/builderos-desktop/history.sqlite3").path) }
    }

    static func seed(at path: String) throws {
        let history = try HistoryStore(path: path)
        let long = Conversation(agent: .jarvis, title: "Ten thousand", created: Date(timeIntervalSince1970: 1_700_000_000))
        history.insert(long)
        history.inTransaction {
            for i in 0..<10_000 {
                history.append(
                    ChatMessage(
                        conversation: long.id, role: i % 2 == 0 ? .user : .assistant,
                        text: i == 1234
                            ? "message 1234 about the résumé"
                            : [100, 5000, 9995].contains(i) ? "message \(i): the **Gateway** restarted" : "message \(i): a **reply** with `code`",
                        state: i % 2 == 0 ? .sent : .complete, created: long.created.addingTimeInterval(Double(i))))
            }
        }
        let notes = Conversation(agent: .codex, title: "Deploy notes", created: Date(timeIntervalSince1970: 1_800_000_000))
        history.insert(notes)
        history.append(ChatMessage(conversation: notes.id, role: .user, text: "Where is my résumé template?", state: .sent, created: notes.created))
        history.append(
            ChatMessage(
                conversation: notes.id, role: .assistant, text: "Your **résumé** template is in `~/Documents`.", state: .complete,
                created: notes.created.addingTimeInterval(5)))
    }

    @Test(arguments: Display.allCases) func findOpenAndReturn(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        try await seed(sandbox)
        let output = try await UIScenario.run(
            "SearchScenario.search", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        for line in output.split(separator: "\n") where line.hasPrefix("MEASURE") || line.hasPrefix("NOTE") { print(line) }
        UIScenario.screenshotsExist("SearchScenario.search", ["results", "opened"], on: display)
    }

    /// Ctrl+F in the 10,000-message conversation: matches far from the loaded rows are shown in place.
    @Test(arguments: Display.allCases) func findInTheConversation(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        try await seed(sandbox)
        _ = try await UIScenario.run("SearchScenario.find", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("SearchScenario.find", ["find"], on: display)
    }

    /// The same in German, for its screenshots and texts.
    @Test func findInGerman() async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        try await seed(sandbox)
        _ = try await UIScenario.run(
            "SearchScenario.search", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: .x11,
            environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"], options: ["screens": "german"])
        UIScenario.screenshotsExist("SearchScenario.search", ["german-results", "german-opened"], on: .x11)
        _ = try await UIScenario.run(
            "SearchScenario.find", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: .x11,
            environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"], options: ["screens": "german"])
        UIScenario.screenshotsExist("SearchScenario.find", ["german-find"], on: .x11)
    }
}
