import BuilderOSKit
import Foundation
import ProcessHarness
import Testing

/// Several servers from the command line, against two real reference servers that record every wrong key sent
/// to them (`/__reference/wrong-keys`): adding, listing, choosing, replacing a key, forgetting — and no request
/// or frame to one ever carries the other's key.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service that meson-helpers/run-tests starts"))
struct ServersCLITests {

    private func servers(_ sandbox: CLISandbox) async throws -> [[String: Any]] {
        let result = try await sandbox.run(["servers", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    private func keyringHasKey(_ sandbox: CLISandbox, for server: ServerProcess) async throws -> Bool {
        let lookup = try await sandbox.run(
            ["lookup", "xdg:schema", "app.builderos.Desktop.ApiKey", "server", server.url, "version", "1"],
            executable: "/usr/bin/secret-tool")
        return lookup.status == 0 && !lookup.stdout.isEmpty
    }

    @Test func twoServersAddedUsedReplacedAndForgottenWithoutAKeyCrossing() async throws {
        let mini = try ServerProcess(arguments: ["--test-controls"])
        let studio = try ServerProcess(arguments: ["--test-controls"])
        defer { mini.stop(); studio.stop() }
        let sandbox = try CLISandbox()

        // Adding: each becomes the active one as it is added.
        let first = try await sandbox.run(["login", "--server", mini.url, "--name", "mini"], stdin: mini.key)
        #expect(first.status == 0 && first.stdout.contains("Signed in to mini"), "\(first.stderr)")
        let second = try await sandbox.run(["login", "--server", studio.url, "--name", "studio"], stdin: studio.key)
        #expect(second.status == 0, "\(second.stderr)")
        var list = try await servers(sandbox)
        #expect(list.map { $0["name"] as? String } == ["mini", "studio"])
        #expect(list.map { $0["active"] as? Bool } == [false, true])
        #expect(list.allSatisfy { $0["state"] as? String == "online" }, "\(list)")
        let text = try await sandbox.run(["servers"])
        #expect(text.stdout.contains("* studio") && text.stdout.contains("  mini"))

        // Choosing: --server for one command, `use` for the default.
        let byName = try await sandbox.run(["status", "--json", "--server", "mini"])
        #expect(byName.status == 0 && byName.stdout.contains("\"server\" : \"\(mini.url)\""), "\(byName.stderr)")
        let active = try await sandbox.run(["status", "--json"])
        #expect(active.stdout.contains("\"server\" : \"\(studio.url)\""))
        #expect(try await sandbox.run(["use", "mini"]).status == 0)
        let afterUse = try await sandbox.run(["capsules", "--json"])
        #expect(afterUse.status == 0)
        let chat = try await sandbox.run(["chat", "--server", studio.url + "/", "hello"])
        #expect(chat.status == 0 && chat.stdout.contains("You said: “hello”"), "\(chat.stderr)")
        let unknown = try await sandbox.run(["status", "--server", "nowhere"])
        #expect(unknown.status == 3 && unknown.stderr.contains("No server named “nowhere”"))

        // Renaming: the new name picks the server out; a name another server has is refused.
        let renamed = try await sandbox.run(["rename", "mini", "Mac mini"])
        #expect(renamed.status == 0 && renamed.stdout.contains("is now called Mac mini"), "\(renamed.stderr)")
        #expect(try await sandbox.run(["rename", "studio", "mac MINI"]).status == 2)
        #expect(try await sandbox.run(["rename", "Mac mini", "mini"]).status == 0)

        // Replacing a key: a refused one changes nothing and says so; the good one replaces it in place.
        let refused = try await sandbox.run(["login", "--server", mini.url], stdin: "a-key-that-is-not-minis-123")
        #expect(refused.status == 5 && refused.stderr.contains("Nothing was changed: mini keeps the key it had"))
        #expect(try await sandbox.run(["status", "--server", "mini"]).status == 0)
        let replaced = try await sandbox.run(["login", "--server", mini.url], stdin: mini.key)
        #expect(replaced.status == 0 && replaced.stdout.contains("The key of mini is replaced"), "\(replaced.stderr)")
        #expect(try await servers(sandbox).count == 2)

        // Forgetting: the key leaves the keyring, the server the list; the other one stays and becomes active.
        #expect(try await sandbox.run(["use", "studio"]).status == 0)
        let forgot = try await sandbox.run(["logout", "--server", "studio"])
        #expect(forgot.status == 0 && forgot.stdout.contains("The active server is now mini"), "\(forgot.stderr)")
        #expect(try await !keyringHasKey(sandbox, for: studio))
        #expect(try await keyringHasKey(sandbox, for: mini))
        list = try await servers(sandbox)
        #expect(list.map { $0["name"] as? String } == ["mini"] && list.first?["active"] as? Bool == true)
        #expect(try await sandbox.run(["status", "--server", "studio"]).status == 3)
        #expect(try await sandbox.run(["status"]).status == 0)

        // Through all of it, neither server was sent the other's key (mini saw only the refused one).
        #expect(Set(try await mini.wrongKeys(via: sandbox)) == ["a-key-that-is-not-minis-123"])
        #expect(try await studio.wrongKeys(via: sandbox).isEmpty)
        _ = try await sandbox.run(["logout"])
    }

    /// `login --ca-file`: an unreadable file is refused before anything is asked; a readable one is kept, as an
    /// absolute path, with the server (the session's requests trust it: `TLSTests`).
    @Test func anExtraAuthorityIsKeptWithItsServer() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let missing = try await sandbox.run(["login", "--server", server.url, "--ca-file", "/nonexistent/ca.pem"], stdin: server.key)
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/ca.pem"), "\(missing.stderr)")
        let authority = sandbox.root.appendingPathComponent("ca.pem")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: authority)
        let login = try await sandbox.run(["login", "--server", server.url, "--ca-file", authority.path], stdin: server.key)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try String(contentsOf: sandbox.settingsFile, encoding: .utf8).contains("ca-file='\(authority.path)'"))
        _ = try await sandbox.run(["logout"])
    }

    @Test func anUnreachableServerOrAMissingKeyConcernsOnlyThatServer() async throws {
        let mini = try ServerProcess()
        let studio = try ServerProcess()
        defer { mini.stop() }
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["login", "--server", mini.url, "--name", "mini"], stdin: mini.key).status == 0)
        #expect(try await sandbox.run(["login", "--server", studio.url, "--name", "studio"], stdin: studio.key).status == 0)
        studio.stop()
        // mini's key goes missing from the keyring (another tool removed it).
        let cleared = try await sandbox.run(
            ["clear", "xdg:schema", "app.builderos.Desktop.ApiKey", "server", mini.url, "version", "1"], executable: "/usr/bin/secret-tool")
        #expect(cleared.status == 0)

        let list = try await servers(sandbox)
        #expect(list.map { $0["state"] as? String } == ["sign-in-again", "unreachable"], "\(list)")
        let text = try await sandbox.run(["servers"])
        #expect(text.stdout.contains("sign in again") && text.stdout.contains("unreachable: "))
        #expect(try await sandbox.run(["status", "--server", "mini"]).status == 3)
        #expect(try await sandbox.run(["status", "--server", "studio"]).status == 4)
        _ = try await sandbox.run(["logout", "--server", "studio"])
        _ = try await sandbox.run(["logout", "--server", "mini"])
    }

    @Test func forgettingKeepsTheHistoryUnlessAskedAndSigningInAgainFindsIt() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["login", "--server", server.url], stdin: server.key).status == 0)
        let export = sandbox.root.appendingPathComponent("one.json")
        try Data(Self.oneConversation.utf8).write(to: export)
        #expect(try await sandbox.run(["history", "import", export.path]).status == 0)
        #expect(try await sandbox.run(["history", "list"]).stdout.contains("Kept across"))

        let kept = try await sandbox.run(["logout"])
        #expect(kept.status == 0 && kept.stdout.contains("stays on this computer"))
        #expect(try await sandbox.run(["login", "--server", server.url], stdin: server.key).status == 0)
        #expect(try await sandbox.run(["history", "list"]).stdout.contains("Kept across"), "signing in again brings it back")

        let deleted = try await sandbox.run(["logout", "--delete-history"])
        #expect(deleted.status == 0 && deleted.stdout.contains("was deleted"))
        #expect(try await sandbox.run(["login", "--server", server.url], stdin: server.key).status == 0)
        #expect(!(try await sandbox.run(["history", "list"]).stdout.contains("Kept across")))
        let folder = sandbox.root.appendingPathComponent("data/builderos-desktop")
        _ = try await sandbox.run(["logout", "--delete-history"])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("history") }.isEmpty)
    }

    /// A profile as today's release leaves it — its settings keyfile (Tests/BuilderOSKitTests/Fixtures), its keyring
    /// item, a history with a conversation and a message waiting in the outbox — opens as one server, everything in place.
    @Test func aSingleServerProfileComesThroughTheUpgradeIntact() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BuilderOSKitTests/Fixtures/single-server-profile.keyfile")
        let keyfile = try String(contentsOf: fixture, encoding: .utf8).replacingOccurrences(of: "http://127.0.0.1:18777", with: server.url)
        try FileManager.default.createDirectory(at: sandbox.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try keyfile.write(to: sandbox.settingsFile, atomically: true, encoding: .utf8)
        let stored = try await sandbox.run(
            ["store", "--label=BuilderOS API key", "xdg:schema", "app.builderos.Desktop.ApiKey", "server", server.url, "version", "1"],
            stdin: server.key, executable: "/usr/bin/secret-tool")
        #expect(stored.status == 0)
        let history = try HistoryStore(path: sandbox.root.appendingPathComponent("data/builderos-desktop/history.sqlite3").path)
        let kept = Conversation(agent: .jarvis, title: "From before the upgrade")
        history.insert(kept)
        history.append(ChatMessage(conversation: kept.id, role: .user, text: "still waiting to be sent", state: .queued))

        let list = try await servers(sandbox)
        #expect(list.count == 1 && list.first?["address"] as? String == server.url && list.first?["active"] as? Bool == true)
        #expect(list.first?["state"] as? String == "online", "the keyring item is found under the same address")
        let listed = try await sandbox.run(["history", "list"])
        #expect(listed.stdout.contains("From before the upgrade"), "\(listed.stderr)")
        #expect(try HistoryStore(path: history.path).messages(in: kept.id).first?.state == .queued, "the outbox is as it was")
        let settings = try String(contentsOf: sandbox.settingsFile, encoding: .utf8)
        #expect(settings.contains("wake-mac='3c:22:fb:12:34:56'") && settings.contains("[app/builderos/Desktop/servers/"))
        #expect(!settings.contains("server-url"), "the old keys are gone")
        // A second start migrates nothing.
        #expect(try await servers(sandbox).count == 1)
        _ = try await sandbox.run(["logout"])
    }

    static let oneConversation = """
        {"format":"builderos-desktop-history","version":1,"exported":1795000000,"conversations":[{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF",\
        "agent":"jarvis","title":"Kept across","created":1795000000,"updated":1795000060,"draft":"","messages":[{"id":\
        "7F9619FF-8B86-D011-B42D-00C04FC964FF","role":"user","text":"remember me","state":"sent","created":1795000001,"attachments":[]}]}]}
        """
}
