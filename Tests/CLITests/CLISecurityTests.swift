import Foundation
import ProcessHarness
import Testing

/// What `builderos` does with hostile input: a server's text cannot act on the terminal, a key that cannot be a
/// key is refused before anything is sent or stored, addresses with controls are refused, and a crash leaves
/// no key on disk.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service that meson-helpers/run-tests starts"))
struct CLISecurityTests {
    static let osc52 = "\u{1B}]52;c;cHduZWQ=\u{07}"
    static let clear = "\u{1B}[2J\u{1B}[H"
    static let c1CSI = "\u{9B}31m"

    /// No byte that starts an escape sequence: ESC, BEL, CR, or U+009B (C2 9B in UTF-8).
    static func actsOnATerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" || (0x80...0x9F).contains($0.value) }
    }

    /// The reference server echoes the message in its reply, so the reply carries what the message did.
    @Test func aReplysEscapeSequencesAreShownNotActedOn() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["login", "--server", server.url], stdin: server.key).status == 0)
        let hostile = "look \(Self.osc52)\(Self.clear)\(Self.c1CSI) here"
        let chat = try await sandbox.run(["chat", hostile])
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(!Self.actsOnATerminal(chat.stdout))
        #expect(chat.stdout.contains(#"\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\u{1B}[H\u{9B}31m here"#))
        // --raw into a file (not a terminal): the bytes as the server sent them.
        let raw = try await sandbox.run(["chat", "--raw", hostile])
        #expect(raw.status == 0 && raw.stdout.contains(hostile))
        _ = try await sandbox.run(["logout"])
    }

    @Test func rawIsRefusedOnATerminal() async throws {
        let sandbox = try CLISandbox()
        // `script` gives the CLI a real terminal as standard output.
        let result = try await sandbox.run(
            ["-c", "script -qec \"'\(Binaries.path("builderos"))' chat --raw hello\" /dev/null; echo \"exit=$?\""],
            executable: "/bin/bash")
        #expect(result.stdout.contains("only allowed when the output goes to a pipe or a file"), "\(result.stdout)")
        #expect(result.stdout.contains("exit=2"))
    }

    /// Status fields, capsule names and error texts from a hostile server (a small Python server answering
    /// `/api/status` and `/api/capsules` with escape sequences), as text and as JSON.
    @Test func statusFieldsAndCapsuleNamesAreEscaped() async throws {
        let sandbox = try CLISandbox()
        let script = sandbox.root.appendingPathComponent("hostile.py")
        try #"""
        import http.server, json, sys
        E = "\u001b]0;owned\u0007\u009b2J\u202e"
        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a): pass
            def do_GET(self):
                if self.path == "/api/status":
                    body = {"status": "running" + E, "version": "9.9" + E, "uptime": 5, "health": "ok"}
                elif self.path == "/api/capsules":
                    body = {"count": 1, "capsules": [{"name": "n" + E, "title": "T" + E, "purpose": "p" + E}]}
                else:
                    self.send_response(500); self.send_header("Content-Type", "application/json"); self.end_headers()
                    self.wfile.write(json.dumps({"error": "bad" + E}).encode()); return
                data = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(200); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
        s = http.server.HTTPServer(("127.0.0.1", 0), H)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """#.write(to: script, atomically: true, encoding: .utf8)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", script.path]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        defer { kill(python.processIdentifier, SIGKILL); python.waitUntilExit() }
        let portLine = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let url = "http://127.0.0.1:\(portLine.trimmingCharacters(in: .whitespacesAndNewlines))"
        try await signInWithoutTest(sandbox, server: url, key: "hostile-server-test-key")

        let status = try await sandbox.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(!Self.actsOnATerminal(status.stdout + status.stderr))
        #expect(status.stdout.contains(#"9.9\u{1B}]0;owned\u{07}\u{9B}2J\u{202E}"#))
        let json = try await sandbox.run(["status", "--json"])
        #expect(!Self.actsOnATerminal(json.stdout) && json.stdout.contains(#"\u009b2J\u202e"#), "\(json.stdout)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(parsed["version"] as? String == "9.9\u{1B}]0;owned\u{07}\u{9B}2J\u{202E}", "the JSON still says exactly what was sent")
        let capsules = try await sandbox.run(["capsules"])
        #expect(!Self.actsOnATerminal(capsules.stdout) && capsules.stdout.contains(#"T\u{1B}]0;owned"#))
        let capsulesJSON = try await sandbox.run(["capsules", "--json"])
        #expect(!Self.actsOnATerminal(capsulesJSON.stdout))
        _ = try? await sandbox.run(["logout"])
    }

    /// A key with a line break in it would add a header of the server's choosing to every request.
    @Test(arguments: [
        ("abcdefgh\r\nX-Injected: yes", "line break"),
        ("abcd\u{0}efghijk", "line break or another control character"),
        ("short", "too short"),
        ("key with spaces inside", "cannot contain spaces"),
        ("schlüssel-mit-umlaut", "cannot be in a key"),
    ])
    func aKeyThatCannotBeAKeyIsRefusedBeforeAnythingIsSent(key: String, says: String) async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["login", "--server", server.url], stdin: key)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(!result.stdout.contains("Testing"), "refused before any connection")
        #expect(!FileManager.default.fileExists(atPath: sandbox.settingsFile.path))
    }

    @Test func invalidUTF8IsRefusedAndAByteOrderMarkIsDropped() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let bad = sandbox.root.appendingPathComponent("bad-key")
        try Data([0x61, 0x62, 0x63, 0x64, 0xFF, 0xFE, 0x65, 0x66, 0x67, 0x68]).write(to: bad)
        let refused = try await sandbox.run(
            ["-c", "'\(Binaries.path("builderos"))' login --server \(server.url) < '\(bad.path)'"],
            executable: "/bin/bash")
        #expect(refused.status == 2 && refused.stderr.contains("is not text"), "\(refused.stderr)")
        // A key file saved with a byte-order mark (a Windows editor) still signs in.
        let withBOM = try await sandbox.run(["login", "--server", server.url], stdin: "\u{FEFF}" + server.key + "\r\n")
        #expect(withBOM.status == 0, "\(withBOM.stderr)")
        _ = try await sandbox.run(["logout"])
    }

    @Test func addressesWithControlsOrTooLongAreRefused() async throws {
        let sandbox = try CLISandbox()
        let control = try await sandbox.run(["login", "--server", "http://127.0.0.1:8080/a\u{1B}]0;x\u{07}"], stdin: "not-a-real-key-0000")
        #expect(control.status == 2 && control.stderr.contains("control characters"), "\(control.stderr)")
        #expect(!Self.actsOnATerminal(control.stdout + control.stderr))
        let long = try await sandbox.run(
            ["login", "--server", "https://example.com/" + String(repeating: "a", count: 120_000)],
            stdin: "not-a-real-key-0000")
        #expect(long.status == 2 && long.stderr.contains("too long"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.settingsFile.path))
    }

    /// With core dumps allowed (`ulimit -c unlimited`, the kernel writing `core` files into the working folder),
    /// a fatal signal while the CLI holds the key (waiting for a slow reply) ends it at once and leaves no
    /// core file, and no file under the folder holds the key.
    @Test(arguments: [("SEGV", 139), ("ABRT", 134)])
    func aCrashLeavesNoKeyOnDisk(signal: String, exitCode: Int) async throws {
        let server = try ServerProcess(arguments: ["--chunk-delay-ms", "60000"])
        defer { server.stop() }
        try await expectCrashLeavesNoKey(
            server: server, signal: signal, exitCode: exitCode,
            launch: """
                '\(Binaries.path("builderos"))' chat 'hold on' > out 2>&1 &
                pid=$!; runner=$pid
                for _ in $(seq 200); do [ -s out ] && break; sleep 0.05; done
                """)
    }

    /// The desktop app, killed with SIGSEGV while it holds the key (signed in, its window open under Xvfb), with core
    /// dumps allowed: it ends at once and leaves no core file and no file with the key. (The app limits its core size
    /// rather than becoming non-dumpable, which would lock it out of the desktop portals.)
    @Test func theAppLeavesNoCoreEither() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let app = Binaries.path("builderos-desktop")
        try await expectCrashLeavesNoKey(
            server: server, signal: "SEGV", exitCode: 139,
            launch: """
                GSK_RENDERER=cairo xvfb-run -a -n 140 sh -c "'\(app)' & echo \\$! > app-pid; wait \\$!; echo \\$? > app-exit" > out 2>&1 &
                runner=$!; pid=""
                for _ in $(seq 1200); do pid=$(cat app-pid 2>/dev/null); [ -n "$pid" ] && break; sleep 0.05; done
                sleep 3
                """)
    }

    /// Signs in to `server`, then in a folder where the kernel writes core files runs `launch` (shell lines that start
    /// the process, set `pid` to it and `runner` to what to wait for), sends it `signal`, and checks that the signal
    /// ended it, that no core file was written and that no file there holds the key.
    func expectCrashLeavesNoKey(server: ServerProcess, signal: String, exitCode: Int, launch: String) async throws {
        let pattern = (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8)) ?? ""
        try #require(pattern.hasPrefix("core"), "this check needs core files written beside the process; core_pattern is \(pattern)")
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["login", "--server", server.url], stdin: server.key).status == 0)
        let folder = sandbox.root.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = """
            ulimit -c unlimited; cd '\(folder.path)'
            \(launch)
            kill -\(signal) $pid
            for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
            if kill -0 $pid 2>/dev/null; then echo "still-running"; kill -9 $pid; fi
            wait $runner; status=$?
            # The app's own status where a wrapper recorded it (xvfb-run's may be its clean-up's, not the app's).
            [ -f app-exit ] && status=$(cat app-exit)
            echo "exit=$status"
            """
        let result = try await sandbox.run(["-c", script], executable: "/bin/bash")
        #expect(result.stdout.contains("exit=\(exitCode)"), "ended by the signal: \(result.stdout) \(result.stderr.suffix(500))")
        #expect(!result.stdout.contains("still-running"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.contains { $0.hasPrefix("core") }, "\(files)")
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(data.range(of: Data(server.key.utf8)) == nil, "\(file) holds the key")
        }
        _ = try await sandbox.run(["logout"])
    }

    /// Signs in the way an earlier version left things: the address in the settings file it imports, the key
    /// stored with secret-tool (a hostile server cannot pass the connection test's key check).
    func signInWithoutTest(_ sandbox: CLISandbox, server: String, key: String) async throws {
        try FileManager.default.createDirectory(at: sandbox.legacySettingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"server_url":"\#(server)","device_id":"hostile-test"}"#.utf8).write(to: sandbox.legacySettingsFile)
        let stored = try await sandbox.run(
            [
                "store", "--label=BuilderOS hostile test", "xdg:schema", "app.builderos.Desktop.ApiKey",
                "server", server, "version", "1",
            ], stdin: key, executable: "/usr/bin/secret-tool")
        #expect(stored.status == 0)
    }
}
