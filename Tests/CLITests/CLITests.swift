import Foundation
import ProcessHarness
import Testing

/// `builderos` end to end: real processes, a real server, the session's real keyring.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service that meson-helpers/run-tests starts"))
struct CLITests {
    @Test func wrongKeyExits5AndStoresNothing() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["login", "--server", server.url], stdin: "not-the-key\n")
        #expect(result.status == 5)
        #expect(result.stderr.contains("The server rejected the API key"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.settingsFile.path))
        #expect(try await sandbox.run(["status"]).status == 3)
    }

    @Test func fullSession() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()

        let login = try await sandbox.run(["login", "--server", server.url + "/"], stdin: server.key + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in"))
        let settings = try String(contentsOf: sandbox.settingsFile, encoding: .utf8)
        #expect(settings.contains(server.url) && !settings.contains(server.key))

        let status = try await sandbox.run(["status", "--json"])
        #expect(status.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(json["version"] as? String == "1.4.0-reference")
        #expect((json["latency_ms"] as? Double ?? -1) >= 0)
        #expect(json["system_available"] as? Bool == true)
        // One status request by default; more latency samples on request, within reason.
        #expect(try await sandbox.run(["status", "--samples", "3"]).status == 0)
        #expect(try await sandbox.run(["status", "--samples", "0"]).status == 2)

        // A reader that has gone (`| head -1`, here one that reads nothing) ends the CLI quietly, not with a crash report.
        let piped = try await sandbox.run(["-c", "'\(Binaries.path("builderos"))' status | true; exit ${PIPESTATUS[0]}"], executable: "/bin/bash")
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr.prefix(500))")

        let capsules = try await sandbox.run(["capsules", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(capsules.stdout.utf8)) as? [String: Any])
        #expect(list["count"] as? Int == 5)

        let chat = try await sandbox.run(["chat", "hello"])
        #expect(chat.status == 0)
        #expect(chat.stdout.contains("You said: “hello”"))
        #expect(chat.stdout.contains("```swift") && !chat.stdout.contains("tts-summary"))

        let codex = try await sandbox.run(["chat", "--codex", "refactor", "this"])
        #expect(codex.status == 0 && codex.stdout.contains("Codex here") && codex.stdout.contains("“refactor this”"))

        #expect(try await sandbox.run(["sleep"]).status == 2)
        let sleep = try await sandbox.run(["sleep", "--yes"])
        #expect(sleep.status == 0 && sleep.stdout.contains("sleep"))

        let logout = try await sandbox.run(["logout"])
        #expect(logout.status == 0)
        let after = try await sandbox.run(["status"])
        #expect(after.status == 3 && after.stderr.contains("not signed in"))
    }

    @Test func unreachableServerExits4() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["login", "--server", "http://127.0.0.1:9"], stdin: "not-a-real-key-0000\n")
        #expect(result.status == 4)
        #expect(result.stderr.contains("refused the connection"))
    }

    @Test(arguments: ["ftp://example.com", "https://user:pw@example.com", "https://example.com:99999", "https://exa mple.com"])
    func invalidAddressExits2(address: String) async throws {
        let result = try await CLISandbox().run(["login", "--server", address], stdin: "not-a-real-key-0000\n")
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
    }

    @Test func plainHTTPOverTheInternetNeedsConsent() async throws {
        // 203.0.113.1 is TEST-NET-3: the command refuses before any traffic is sent.
        let result = try await CLISandbox().run(["login", "--server", "http://203.0.113.1:8080"], stdin: "not-a-real-key-0000\n")
        #expect(result.status == 2)
        #expect(result.stderr.contains("not encrypted"))
    }

    @Test func notSignedInExits3() async throws {
        let sandbox = try CLISandbox()
        for command in [["status"], ["capsules"], ["chat", "hi"], ["sleep", "--yes"], ["logout"]] {
            let result = try await sandbox.run(command)
            #expect(result.status == 3, "\(command)")
        }
    }

    @Test func systemServerAbsentExits6() async throws {
        let server = try ServerProcess(arguments: ["--no-system-routes"])
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let login = try await sandbox.run(["login", "--server", server.url], stdin: server.key)
        #expect(login.status == 0)
        #expect(login.stdout.contains("not available on this server"))
        let capsules = try await sandbox.run(["capsules"])
        #expect(capsules.status == 6 && capsules.stderr.contains("not available on this server"))
        let status = try await sandbox.run(["status", "--json"])
        #expect(status.stdout.contains("\"system_available\" : false"))
        _ = try await sandbox.run(["logout"])
    }

    @Test func noSecretServiceIsSaidPlainlyAndNothingIsStored() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(
            ["login", "--server", server.url], stdin: server.key,
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No keyring service is running"))
        #expect(result.stderr.contains("gnome-keyring"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.settingsFile.path))
    }

    @Test func lockedKeyringIsSaidPlainly() async throws {
        // Its own session bus and keyring, so locking it disturbs no other test.
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        let script = """
            set -u
            # Our own bus, with a known pid so it can be stopped for sure.
            dbus-daemon --config-file="$4" --nofork --print-address=3 3>"$5" &
            bus=$!
            for _ in $(seq 100); do [ -s "$5" ] && break; sleep 0.05; done
            export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$5")
            export XDG_RUNTIME_DIR="\(sandbox.root.path)/run" XDG_DATA_HOME="\(sandbox.root.path)/data"
            mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
            printf pw | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
            keyring=$!
            trap 'kill -9 $keyring $bus 2>/dev/null' EXIT
            for _ in $(seq 100); do gdbus introspect --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets >/dev/null 2>&1 && break; sleep 0.05; done
            "$1" login --server "$2" < "$3" >/dev/null || exit 90
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \\
              --method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/collection/login']" >/dev/null
            "$1" status; echo "status-exit=$?"
            "$1" logout; echo "logout-exit=$?"
            "$1" login --server "$2" < "$3"; echo "login-exit=$?"
            """
        // A bus with no activatable services: no unlock prompter can start (and hang headless),
        // so the locked keyring answers at once, as it does for a user who dismisses the prompt.
        let busConfig = sandbox.root.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=\(sandbox.root.path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
        </busconfig>
        """.write(to: busConfig, atomically: true, encoding: .utf8)
        let result = try await sandbox.run(
            [
                "-c", script, "bash", Binaries.path("builderos"), server.url, server.keyFile.path,
                busConfig.path, sandbox.root.appendingPathComponent("bus-address").path,
            ],
            executable: "/bin/bash")
        #expect(result.stdout.contains("status-exit=1"), "\(result.stdout)")
        #expect(result.stdout.contains("login-exit=1"))
        #expect(result.stdout.contains("logout-exit=1"), "a locked key must not be reported as removed")
        #expect(result.stderr.contains("Your keyring is locked"))
        #expect(!result.stdout.contains("status-exit=3"))
    }

    @Test func restTrafficHonoursTheProxyEnvironment() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        // Signed in to a host only the proxy can reach (the reference server answers proxy-style
        // absolute-form requests itself): the settings file of earlier versions (imported into GSettings at the first
        // start), and the key stored with secret-tool.
        let port = try #require(URLComponents(string: server.url)?.port)
        let hidden = "http://builderos-behind-proxy.invalid:\(port)"
        try FileManager.default.createDirectory(at: sandbox.legacySettingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"server_url":"\#(hidden)","device_id":"proxy-test"}"#.utf8).write(to: sandbox.legacySettingsFile)
        let stored = try await sandbox.run(
            [
                "store", "--label=BuilderOS proxy test", "xdg:schema", "app.builderos.Desktop.ApiKey",
                "server", hidden, "version", "1",
            ], stdin: server.key, executable: "/usr/bin/secret-tool")
        #expect(stored.status == 0)

        let direct = try await sandbox.run(["capsules", "--json"])
        #expect(direct.status == 4 && direct.stderr.contains("could not be found"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.legacySettingsFile.path), "imported once, then removed")
        #expect(try String(contentsOf: sandbox.settingsFile, encoding: .utf8).contains("device-id='proxy-test'"))
        let proxied = try await sandbox.run(["capsules", "--json"], environment: ["http_proxy": server.url])
        #expect(proxied.status == 0, "\(proxied.stderr)")
        #expect(proxied.stdout.contains("jarvis-core"))
        _ = try? await sandbox.run(["logout"])
    }

    @Test func keyPromptOnATerminalDoesNotEcho() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        // `script` gives the CLI a real terminal; the key is typed a moment after the prompt.
        let command =
            "(sleep 1; cat '\(server.keyFile.path)') | script -qec \"'\(Binaries.path("builderos"))' login --server \(server.url)\" /dev/null"
        let result = try await sandbox.run(["-c", command], executable: "/bin/bash")
        #expect(result.status == 0)
        #expect(result.stdout.contains("API key: "))
        #expect(result.stdout.contains("Signed in"))
        #expect(!result.stdout.contains(server.key), "the key was echoed")
        _ = try await sandbox.run(["logout"])
    }

    @Test func helpExitsZero() async throws {
        let result = try await CLISandbox().run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Exit codes"))
    }
}

/// What `status` sends, counted by the reference server: one request when the server lists its
/// features; a server that does not is also asked for its capsules.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service that meson-helpers/run-tests starts"))
struct StatusRequestTests {
    private func counts(_ sandbox: CLISandbox, _ server: ServerProcess) async throws -> [String: Int] {
        let reply = try await sandbox.run(["-s", server.url + "/__reference/requests"], executable: "/usr/bin/curl")
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Int])
    }

    @Test func statusMakesOneRequest() async throws {
        let server = try ServerProcess(arguments: ["--test-controls"])
        defer { server.stop() }
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["login", "--server", server.url], stdin: server.key).status == 0)
        let before = try await counts(sandbox, server)

        let status = try await sandbox.run(["status", "--json"])
        #expect(status.status == 0 && status.stdout.contains("\"system_available\" : true"), "\(status.stderr)")
        let after = try await counts(sandbox, server)
        #expect(after["/api/status", default: 0] - before["/api/status", default: 0] == 1)
        #expect(after.values.reduce(0, +) - before.values.reduce(0, +) == 1, "\(after)")

        // A server whose status lists no features: capsules say whether the system server is there.
        let faults = try await sandbox.run(
            [
                "-s", "-X", "PUT", "-H", "Content-Type: application/json",
                "--data", #"{"statusWithoutFeatures":true}"#, server.url + "/__reference/faults",
            ],
            executable: "/usr/bin/curl")
        #expect(faults.status == 0)
        let older = try await sandbox.run(["status", "--json"])
        #expect(older.status == 0 && older.stdout.contains("\"system_available\" : true"), "\(older.stderr)")
        let last = try await counts(sandbox, server)
        #expect(last["/api/status", default: 0] - after["/api/status", default: 0] == 1)
        #expect(last["/api/capsules", default: 0] - after["/api/capsules", default: 0] == 1)
        _ = try await sandbox.run(["logout"])
    }
}

/// `builderos` is lean: no GTK, libsoup or cmark-gfm among the libraries the dynamic loader maps
/// before `main` (libsoup loads when a chat or terminal socket opens). The loader lists them itself
/// (LD_TRACE_LOADED_OBJECTS, what ldd uses) without running the program.
struct CLILibrariesTests {
    @Test func theCLILoadsNoGTKSoupOrCmark() async throws {
        let sandbox = try CLISandbox()
        let listed = try await sandbox.run([], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("libglib-2.0"), "\(listed.stdout)")
        for library in ["libgtk", "libsoup", "libcmark", "libcurl"] {
            #expect(!listed.stdout.contains(library), "\(library) in \(listed.stdout)")
        }
    }

    @Test func theAppLoadsSoupAndCurlOnlyWhenUsed() async throws {
        let sandbox = try CLISandbox()
        let listed = try await sandbox.run([], environment: ["LD_TRACE_LOADED_OBJECTS": "1"], executable: "builderos-desktop")
        #expect(listed.stdout.contains("libgtk-4"), "\(listed.stdout)")
        for library in ["libsoup", "libcmark", "libcurl", "libwebkit", "libvte"] {
            #expect(!listed.stdout.contains(library), "\(library) in \(listed.stdout)")
        }
    }
}
