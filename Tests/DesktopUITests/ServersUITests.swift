import BuilderOSKit
import Foundation
import ProcessHarness
import Testing

/// Two servers in the window (ServersScenario): the header's switcher (and the header at the narrowest width), a switch in the same window while a
/// reply streams in the background, and Add Server… refusing an address already set up.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service and display that meson-helpers/run-tests starts"))
struct ServersUITests {
    @Test(arguments: Display.allCases) func switchBetweenTwoServers(on display: Display) async throws {
        try await run(on: display)
        UIScenario.screenshotsExist("ServersScenario.switching", ["switched", "header-narrow", "add-refused"], on: display)
        UIScenario.screenshotsExist("ServersScenario.switching", ["switcher", "replace-refused", "forget"], on: display, minimumBytes: 1_000)
    }

    /// The same in German, for its texts and screenshots.
    @Test func inGerman() async throws {
        try await run(on: .x11, environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"], screens: "german")
        UIScenario.screenshotsExist("ServersScenario.switching", ["german-switched", "german-header-narrow", "german-add-refused"], on: .x11)
        UIScenario.screenshotsExist(
            "ServersScenario.switching", ["german-switcher", "german-replace-refused", "german-forget"], on: .x11, minimumBytes: 1_000)
    }

    private func run(on display: Display, environment: [String: String] = [:], screens: String? = nil) async throws {
        let sandbox = try CLISandbox()
        let notifications = try FakeNotifications.shared.get()
        let mini = try ServerProcess(arguments: ["--test-controls"])
        // Slow chunks: studio's reply is still streaming when the window switches to mini.
        let studio = try ServerProcess(arguments: ["--test-controls", "--chunk-delay-ms", "250"])
        let lab = try ServerProcess()
        let gone = try ServerProcess()
        defer { mini.stop(); studio.stop(); lab.stop(); gone.stop() }
        for (server, name) in [(mini, "mini"), (studio, "studio"), (gone, "gone")] {
            let login = try await sandbox.run(["login", "--server", server.url, "--name", name], stdin: server.key)
            #expect(login.status == 0, "\(login.stderr)")
        }
        #expect(try await sandbox.run(["use", "studio"]).status == 0)
        // gone's key leaves the keyring behind the app's back.
        let cleared = try await sandbox.run(
            ["clear", "xdg:schema", "app.builderos.Desktop.ApiKey", "server", gone.url, "version", "1"], executable: "/usr/bin/secret-tool")
        #expect(cleared.status == 0)
        let folder = sandbox.root.appendingPathComponent("data/builderos-desktop")
        let studioFile = folder.appendingPathComponent(HistoryStore.fileName(for: try ServerAddress.parse(studio.url))).path
        for (path, title) in [(folder.appendingPathComponent(HistoryStore.firstFileName).path, "Only on mini"), (studioFile, "Only on studio")] {
            let history = try HistoryStore(path: path)
            let c = Conversation(agent: .jarvis, title: title, created: Date(timeIntervalSince1970: 1_700_000_000))
            history.insert(c)
            history.append(ChatMessage(conversation: c.id, role: .user, text: "hello \(title)", state: .sent, created: c.created))
        }

        try await UIScenario.run(
            "ServersScenario.switching", server: studio.url, keyFile: studio.keyFile, sandbox: sandbox, display: display,
            environment: environment,
            options: [
                "mini": mini.url, "studio-history": studioFile, "mini-history": folder.appendingPathComponent(HistoryStore.firstFileName).path,
                "lab": lab.url, "lab-key-file": lab.keyFile.path, "notification-log": notifications.log.path,
            ].merging(screens.map { ["screens": $0] } ?? [:]) { $1 })
        let servers = try await sandbox.run(["servers", "--json"])
        #expect(servers.stdout.contains("\"name\" : \"studio\""), "\(servers.stderr)")
        // Neither server was ever sent the other's key: studio saw only the refused one, mini none.
        #expect(Set(try await studio.wrongKeys(via: sandbox)) == ["not-studios-key-0123456789"])
        #expect(try await mini.wrongKeys(via: sandbox).isEmpty)
        let lookup = try await sandbox.run(
            ["lookup", "xdg:schema", "app.builderos.Desktop.ApiKey", "server", mini.url, "version", "1"], executable: "/usr/bin/secret-tool")
        #expect(lookup.stdout.isEmpty, "mini's key left the keyring")
    }

}
