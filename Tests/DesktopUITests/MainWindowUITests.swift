import BuilderOSKit
import Foundation
import ProcessHarness
import Testing
import ToolSupport

/// The main window in a real GTK process under Xvfb (`desktop-ui-checks`), against
/// `builderos-server` on loopback, signed in with the real CLI and keyring first. Screens of
/// every page, light and dark, go to `.build/ui-artefacts/`.
@Suite(.serialized)
struct MainWindowUITests {
    /// Signs the sandbox in to the server, as `builderos login` does for a user.
    func signIn(_ sandbox: CLISandbox, _ server: ServerProcess) async throws {
        try await sandbox.signIn(to: server)
    }

    /// Signs in to a server on a port nobody else will be given, then stops it: the scenario runs
    /// the server itself there, so that it can kill and restart it. The key is kept in a file.
    func signInToARestartableServer(_ sandbox: CLISandbox) async throws -> (url: String, port: Int, keyFile: URL) {
        let server = try ServerProcess(port: StablePort.pick())
        let port = try #require(URL(string: server.url)?.port)
        let keyFile = sandbox.root.appendingPathComponent("api-key")
        try Data((server.key + "\n").utf8).write(to: keyFile)
        try await signIn(sandbox, server)
        server.stop()
        return (server.url, port, keyFile)
    }

    @Test(arguments: Display.allCases) func pagesThenRestart(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let log = sandbox.root.appendingPathComponent("messages.jsonl")
        let server = try ServerProcess(arguments: ["--message-log", log.path])
        defer { server.stop() }
        try await signIn(sandbox, server)
        let listener = try UDPListener()
        // A small file to send, and one a byte over the 50 MB limit (sparse: no disk used).
        let small = sandbox.root.appendingPathComponent("notes.txt")
        try Data("deploy notes\n".utf8).write(to: small)
        let large = sandbox.root.appendingPathComponent("too-big.bin")
        FileManager.default.createFile(atPath: large.path, contents: nil)
        let handle = try FileHandle(forWritingTo: large)
        try handle.truncate(atOffset: UInt64(UploadLimit.maximumBytes) + 1)
        try handle.close()
        try await UIScenario.run(
            "MainScenarios.pages", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            options: ["wol-port": String(listener.port), "attachment": small.path, "large-attachment": large.path])
        // Wake-on-LAN: the magic packet for 3c:22:fb:12:34:56 reached this computer's listener.
        let packet = listener.receive()
        #expect(
            packet.count == 102 && packet.prefix(6).allSatisfy { $0 == 0xFF }
                && Array(packet[6..<12]) == [0x3c, 0x22, 0xfb, 0x12, 0x34, 0x56], "\(packet.count) bytes")
        UIScenario.screenshotsExist(
            "MainScenarios.pages",
            [
                "chat-empty", "chat", "attachment", "quick-actions", "quick-actions-sheet", "delete-confirm", "dashboard", "capsule-detail",
                "connection", "connection-disconnected", "sleep-confirm", "wake-instructions", "preferences", "power", "page-window",
            ], on: display)
        let contents = try String(contentsOf: log, encoding: .utf8)
        #expect(contents.components(separatedBy: "Hello from the **desktop**").count == 2, "the first message reached the server once")
        // A new process over the same files: history, page and window size come back.
        try await UIScenario.run("MainScenarios.restart", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("MainScenarios.restart", ["chat-restored"], on: display)
    }

    /// GTK's GL renderer, as GTK picks it on a user's Wayland desktop: set up beside the start there
    /// (`GLPrepare`), and the window draws with it on both displays.
    @Test(arguments: Display.allCases) func startsWithGTKsGLRenderer(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await signIn(sandbox, server)
        try await UIScenario.run(
            "MainScenarios.glStart", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            environment: ["GSK_RENDERER": "gl"])
        UIScenario.screenshotsExist("MainScenarios.glStart", ["gl"], on: display)
    }

    /// The window does not wait for the keyring, and a key removed from it (the server still
    /// configured) leads to setup again.
    @Test(arguments: Display.allCases) func aKeyGoneFromTheKeyringLeadsToSetup(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await signIn(sandbox, server)
        let cleared = try await sandbox.run(
            [
                "clear", "server", try ServerAddress.parse(server.url).baseURL,
                "version", CredentialStore.schemaVersion,
            ], executable: "/usr/bin/secret-tool")
        #expect(cleared.status == 0, "\(cleared.stderr)")
        try await UIScenario.run("WizardScenarios.keyGone", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
    }

    @Test(arguments: Display.allCases) func serverKilledMidReplyThenRestarted(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let (url, port, keyFile) = try await signInToARestartableServer(sandbox)
        let log = sandbox.root.appendingPathComponent("messages.jsonl")
        try await UIScenario.run(
            "ResilienceScenarios.resilience", server: url, keyFile: keyFile, sandbox: sandbox, display: display,
            options: [
                "port": String(port), "server-binary": Binaries.path("builderos-server"),
                "key-file": keyFile.path, "message-log": log.path,
            ])
        UIScenario.screenshotsExist("ResilienceScenarios.resilience", ["thinking", "interrupted", "outbox", "outbox-delivered"], on: display)
    }

    /// Against a FAKE org.freedesktop.Notifications (Tests/Fakes): no notification daemon runs here.
    @Test(arguments: Display.allCases) func notificationsWithDebounce(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let notifications = try FakeNotifications.shared.get()
        let (url, port, keyFile) = try await signInToARestartableServer(sandbox)
        try await UIScenario.run(
            "ResilienceScenarios.notifications", server: url, keyFile: keyFile, sandbox: sandbox, display: display,
            options: [
                "port": String(port), "server-binary": Binaries.path("builderos-server"),
                "key-file": keyFile.path, "notification-log": notifications.log.path,
            ])
    }

    /// The StatusNotifierItem and its dbusmenu against a FAKE watcher/host, in a D-Bus session of their own
    /// (Tests/Fakes/tray-session): registration, properties, icons following the state, menu layout and clicks,
    /// the Servers section switching between two servers, Activate, re-registration after the watcher restarts, no-host
    /// background mode, Quit, and a --hidden start.
    @Test(arguments: Display.allCases) func trayIndicatorAgainstAFakeWatcher(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        // A second server: the menu's Servers section lists both and switches between them.
        let second = try ServerProcess()
        defer { server.stop(); second.stop() }
        let fakes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fakes")
        let result = try await sandbox.run(
            [
                "180", fakes.appendingPathComponent("tray-session").path, Binaries.directory.path, server.url,
                server.keyFile.path, UIScenario.artefacts(display).path, sandbox.root.appendingPathComponent("tray.jsonl").path,
                display.rawValue, second.url, second.keyFile.path,
            ],
            executable: "/usr/bin/timeout")
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(result.status == 0, "\(display.rawValue): \(failures.joined(separator: "\n"))\n\(result.stderr.suffix(2000))")
        // Both scenarios (normal and --hidden) report, each without a failure.
        #expect(result.stdout.components(separatedBy: " passed, 0 failed").count == 3, "\(result.stdout.suffix(3000))")
    }

    @Test(arguments: Display.allCases) func rightToLeftLayout(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await signIn(sandbox, server)
        try await UIScenario.run("MainScenarios.rightToLeft", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("MainScenarios.rightToLeft", ["chat", "connection"], on: display)
    }

    /// The desktop's dark preference through a STAND-IN Settings portal (see `PortalScenario`).
    @Test(arguments: Display.allCases) func followsTheDesktopThroughThePortal(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await signIn(sandbox, server)
        try await UIScenario.run("PortalScenario.followsTheDesktop", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
    }

    @Test(arguments: Display.allCases) func serverWithoutSystemRoutes(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess(arguments: ["--no-system-routes"])
        defer { server.stop() }
        try await signIn(sandbox, server)
        try await UIScenario.run(
            "ResilienceScenarios.noSystemServer", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("ResilienceScenarios.noSystemServer", ["dashboard-404", "power-unavailable"], on: display)
    }

    /// Chunks between two frames are drawn once; only the growing tail of a reply is rebuilt.
    @Test(arguments: Display.allCases) func streamingIsCoalescedPerFrame(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let keyFile = sandbox.root.appendingPathComponent("unused")
        try Data("unused".utf8).write(to: keyFile)
        try await UIScenario.run("StreamingScenario.coalesced", server: "", keyFile: keyFile, sandbox: sandbox, display: display)
    }

    @Test(arguments: Display.allCases) func tenThousandMessageConversation(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await signIn(sandbox, server)
        // Seeded on a thread of its own: 10,000 inserts would hold a cooperative thread for seconds (`offThePool`).
        let path = sandbox.root.appendingPathComponent("data/builderos-desktop/history.sqlite3").path
        try await offThePool {
            let history = try HistoryStore(path: path)
            // An older conversation whose newest reply is taller than the window (the opening frame's check).
            let tall = Conversation(agent: .jarvis, title: "Tall reply")
            history.insert(tall)
            history.append(ChatMessage(conversation: tall.id, role: .user, text: "the long one, please", state: .sent))
            history.append(
                ChatMessage(
                    conversation: tall.id, role: .assistant,
                    text: (1...60).map { "Line \($0) of the tall reply, one of sixty paragraphs." }.joined(separator: "\n\n"),
                    state: .complete))
            let conversation = Conversation(agent: .jarvis, title: "Ten thousand")
            history.insert(conversation)
            history.inTransaction {
                for i in 0..<10_000 {
                    history.append(
                        ChatMessage(
                            conversation: conversation.id, role: i % 2 == 0 ? .user : .assistant,
                            text: i % 2 == 0 ? "message \(i)" : "message \(i): a **reply** with `code`",
                            state: i % 2 == 0 ? .sent : .complete))
                }
            }
        }
        let output = try await UIScenario.run(
            "ResilienceScenarios.large", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        // A measurement, not a verdict: printed for the record.
        for line in output.split(separator: "\n") where line.hasPrefix("MEASURE") { print(line) }
        UIScenario.screenshotsExist("ResilienceScenarios.large", ["large"], on: display)
    }
}

/// A UDP socket on a free loopback port: where the app's Wake-on-LAN packet should arrive.
final class UDPListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        guard let (fd, port) = Loopback.bind(datagram: true) else { throw POSIXError(.EADDRINUSE) }
        self.fd = fd
        self.port = UInt16(port)
    }

    deinit { close(fd) }

    /// The first datagram waiting (the app has exited by now), or nothing.
    func receive() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return n > 0 ? Array(buffer.prefix(n)) : []
    }
}
