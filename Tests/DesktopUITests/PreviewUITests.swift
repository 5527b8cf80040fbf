import Foundation
import ProcessHarness
import Testing
import ToolSupport

/// The Preview page in a real GTK process under Xvfb (`desktop-ui-checks`), with a real WebKit web
/// view, against the reference server and its demo web page on the Vite card's port (5173).
/// Screens, light and dark, go to `.build/ui-artefacts/`.
@Suite(.serialized)
struct PreviewUITests {
    static let demoPort = 5173

    /// STAND-IN for the desktop's browser (none runs here): a handler for http(s) links registered
    /// the way a browser registers itself (a .desktop file and mimeapps.list), which writes down the
    /// address it was given.
    func registerStandInBrowser(_ sandbox: CLISandbox) throws -> URL {
        let log = sandbox.root.appendingPathComponent("browser-opened.txt")
        let script = sandbox.root.appendingPathComponent("stand-in-browser")
        try "#!/bin/sh\necho \"$1\" >> '\(log.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let applications = sandbox.root.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try """
        [Desktop Entry]
        Type=Application
        Name=Stand-in browser
        Exec=\(script.path) %u
        MimeType=x-scheme-handler/http;x-scheme-handler/https;
        """.write(to: applications.appendingPathComponent("bos-stand-in-browser.desktop"), atomically: true, encoding: .utf8)
        try """
        [Default Applications]
        x-scheme-handler/http=bos-stand-in-browser.desktop
        x-scheme-handler/https=bos-stand-in-browser.desktop
        """.write(to: sandbox.configHome.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
        return log
    }

    @Test(arguments: Display.allCases) func probedCardsLivePageAndBrowser(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess(arguments: ["--demo-web-port", String(Self.demoPort)])
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        let browserLog = try registerStandInBrowser(sandbox)
        let closed = Loopback.closedPort()
        try await UIScenario.run(
            "PreviewScenario.cardsAndBrowser", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            options: ["demo-port": String(Self.demoPort), "closed-port": String(closed), "browser-log": browserLog.path])
        UIScenario.screenshotsExist("PreviewScenario.cardsAndBrowser", ["preview", "preview-page", "preview-error"], on: display)
    }

    /// The server reached through a public host name: a private mount namespace gives this test its
    /// own /etc/hosts, naming loopback `builder-tunnel.example.com` (root only, as on CI).
    /// The scenario in a mount namespace where the library `name` (as dlopen names it) is an empty file.
    static func withoutLibrary(_ name: String) throws -> [String] {
        let folders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        let path = try #require(folders.map { "\($0)/\(name)" }.first { FileManager.default.fileExists(atPath: $0) }, "\(name) is installed")
        return ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"", path]
    }

    @Test(.enabled(if: getuid() == 0, "needs a mount namespace of its own (root)"), arguments: Display.allCases)
    func withoutWebKitThePageSaysWhatToInstall(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess(arguments: ["--demo-web-port", String(Self.demoPort)])
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        try await UIScenario.run(
            "PreviewScenario.withoutWebKit", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            options: ["demo-port": String(Self.demoPort)], wrapper: try Self.withoutLibrary("libwebkitgtk-6.0.so.4"))
        UIScenario.screenshotsExist("PreviewScenario.withoutWebKit", ["preview-without-webkit"], on: display)
    }

    @Test(.enabled(if: getuid() == 0, "needs a mount namespace of its own (root)"), arguments: Display.allCases) func tunnelOnlyServerThenPreviewHost(
        on display: Display
    ) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        let port = try #require(URLComponents(string: server.url)?.port)
        let hosts = sandbox.root.appendingPathComponent("hosts")
        try "127.0.0.1 localhost\n127.0.0.1 builder-tunnel.example.com\n".write(to: hosts, atomically: true, encoding: .utf8)
        let tunnelURL = "http://builder-tunnel.example.com:\(port)"
        let wrap = ["-m", "/bin/sh", "-c", "mount --bind \"$0\" /etc/hosts && exec \"$@\"", hosts.path]
        let login = try await sandbox.run(
            wrap + [Binaries.path("builderos"), "login", "--allow-insecure-http", "--server", tunnelURL],
            stdin: server.key, executable: "/usr/bin/unshare")
        #expect(login.status == 0, "\(login.stderr)")
        try await UIScenario.run(
            "PreviewScenario.tunnel", server: tunnelURL, keyFile: server.keyFile, sandbox: sandbox, display: display,
            wrapper: ["/usr/bin/unshare"] + wrap)
        UIScenario.screenshotsExist("PreviewScenario.tunnel", ["preview-tunnel", "preferences-preview-host"], on: display)
    }

}

/// The Terminal page in a real GTK process under Xvfb with a real VTE, against the reference server's
/// PTY; the scenario runs the server itself (on the port the app signed in to) to kill and restart it.
@Suite(.serialized)
struct TerminalUITests {
    @Test(arguments: Display.allCases) func shellJarvisResizeKeysReconnectAndDisconnect(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess(port: StablePort.pick())
        let port = try #require(URLComponents(string: server.url)?.port)
        try await sandbox.signIn(to: server)
        let keyFile = sandbox.root.appendingPathComponent("api-key")
        try Data((server.key + "\n").utf8).write(to: keyFile)
        server.stop()
        try await UIScenario.run(
            "TerminalScenario.tabs", server: server.url, keyFile: keyFile, sandbox: sandbox, display: display,
            options: ["port": String(port), "server-binary": Binaries.path("builderos-server"), "key-file": keyFile.path])
        UIScenario.screenshotsExist(
            "TerminalScenario.tabs", ["terminal", "terminal-two-tabs", "terminal-reconnecting", "terminal-disconnected"], on: display)
    }

    @Test(.enabled(if: getuid() == 0, "needs a mount namespace of its own (root)"), arguments: Display.allCases)
    func withoutVTEThePageSaysWhatToInstall(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess(arguments: ["--enable-terminal"])
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        try await UIScenario.run(
            "TerminalScenario.withoutVTE", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display,
            wrapper: try PreviewUITests.withoutLibrary("libvte-2.91-gtk4.so.0"))
        UIScenario.screenshotsExist("TerminalScenario.withoutVTE", ["terminal-without-vte"], on: display)
    }

    @Test(arguments: Display.allCases) func aServerWithoutTerminals(on display: Display) async throws {
        let sandbox = try CLISandbox()
        let server = try ServerProcess()
        defer { server.stop() }
        try await sandbox.signIn(to: server)
        try await UIScenario.run("TerminalScenario.unavailable", server: server.url, keyFile: server.keyFile, sandbox: sandbox, display: display)
        UIScenario.screenshotsExist("TerminalScenario.unavailable", ["terminal-unavailable"], on: display)
    }
}
