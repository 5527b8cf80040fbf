import Foundation

/// Runs the built executables (`builderos`, `builderos-server`, the app's UI driver) as a user
/// would: the harness the process-level test targets share (CLITests, DesktopUITests, PackagingTests).
public struct CLIResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum Binaries {
    /// Beside the test bundle in SwiftPM's build folder (`swift build` builds them first).
    public static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["BUILDEROS_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }()

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// A private configuration folder per test; the keyring is the session's (see run-tests).
public final class CLISandbox: @unchecked Sendable {
    public let root: URL
    public var configHome: URL { root.appendingPathComponent("config") }
    /// GLib's keyfile GSettings backend (the tests' choice, see with-test-keyring) keeps the settings here.
    public var settingsFile: URL { configHome.appendingPathComponent("glib-2.0/settings/keyfile") }
    /// Where versions before the GSettings schema kept them (imported once, then removed).
    public var legacySettingsFile: URL { configHome.appendingPathComponent("builderos-desktop/settings.json") }

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("bos-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: configHome, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// `builderos login` to `server` with its key on standard input, as a user signs in; throws with
    /// the command's error text when it fails.
    public func signIn(to server: ServerProcess) async throws {
        let login = try await run(["login", "--server", server.url], stdin: server.key)
        guard login.status == 0 else { throw SignInFailed(message: login.stderr) }
    }

    public struct SignInFailed: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "builderos login failed: \(message)" }
    }

    public func run(_ arguments: [String], stdin: String = "", environment extra: [String: String] = [:], executable: String = "builderos")
        async throws -> CLIResult
    {
        // A bare name is one of ours; an absolute path is a system tool.
        let path = executable.hasPrefix("/") ? executable : Binaries.path(executable)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = configHome.path
        environment["GSETTINGS_BACKEND"] = "keyfile"
        // Chat history per sandbox (the keyring daemon already runs and keeps its own files).
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        // The app's cache (the fonts its first frame used) per sandbox too: a new sandbox starts as a first start.
        environment["XDG_CACHE_HOME"] = root.appendingPathComponent("cache").path
        environment["LANGUAGE"] = "C"
        for (k, v) in extra { environment[k] = v }
        let id = UUID().uuidString
        let files = (
            input: root.appendingPathComponent("in-\(id)"), output: root.appendingPathComponent("out-\(id)"),
            errors: root.appendingPathComponent("err-\(id)")
        )
        try Data(stdin.utf8).write(to: files.input)
        defer { [files.input, files.output, files.errors].forEach { try? FileManager.default.removeItem(at: $0) } }
        let status = try await Spawn.run(
            path, arguments, environment: environment,
            stdin: files.input.path, stdout: files.output.path, stderr: files.errors.path)
        return CLIResult(
            status: status, stdout: try String(contentsOf: files.output, encoding: .utf8),
            stderr: try String(contentsOf: files.errors, encoding: .utf8))
    }
}

/// posix_spawn + waitpid. Foundation's `Process` on Linux waits until every descendant has closed
/// an inherited descriptor, so a daemon a child leaves behind (a session bus, a keyring) would
/// hang it; waitpid returns when the child itself exits. Output goes to files for the same reason.
public enum Spawn {
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String],
        stdin: String, stdout: String, stderr: String
    ) async throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The child starts with no signal blocked and every signal at its default, as a shell would start
        // it: Swift's concurrency threads block most signals, and a mask is inherited — a session bus
        // started under it ignored the SIGTERM that dbus-run-session ends it with, and outlived the run.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let error = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard error == 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EINVAL) }
        let child = pid
        let status: Int32 = try await offThePool {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            return status
        }
        // Exited normally: its code; killed by a signal: 128 + signal, as shells report it.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// `builderos-server` as a separate process on a free port, with a key file written for the test.
/// A pipe for a server's standard input whose ends no other child inherits (`FD_CLOEXEC`): a child
/// the test process starts while the server runs would otherwise hold the pipe open after the test
/// process ended, and the server with it. The server's copy, its standard input, is made by the spawn.
public struct ServerInput: Sendable {
    public let serverEnd: FileHandle
    public let heldEnd: FileHandle

    public init() throws {
        var ends: [Int32] = [0, 0]
        // (Glibc's module has no pipe2: a child spawned between these two calls could still inherit them.)
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        serverEnd = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        heldEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }
}

public final class ServerProcess: @unchecked Sendable {
    public let url: String
    public let key: String
    public let keyFile: URL
    private let process: Process
    private let folder: URL
    /// The server's standard input: it exits when this pipe ends (`--exit-when-input-ends`).
    private let input: ServerInput

    public init(port: Int = 0, arguments: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-srv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        key = "\(ProcessInfo.processInfo.environment["BUILDEROS_TEST_MARKER"] ?? "bostest")-\(UUID().uuidString.lowercased())"
        keyFile = folder.appendingPathComponent("api-key")
        _ = FileManager.default.createFile(atPath: keyFile.path, contents: Data((key + "\n").utf8), attributes: [.posixPermissions: 0o600])
        process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.path("builderos-server"))
        process.arguments =
            [
                "--port", String(port), "--key-file", keyFile.path, "--upload-dir", folder.appendingPathComponent("uploads").path,
                "--exit-when-input-ends",
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        // Held by this process only: if it crashes, the pipe ends and the server with it (no orphan
        // keeps `swift test` waiting on the test's output).
        input = try ServerInput()
        process.standardInput = input.serverEnd
        try process.run()
        try? input.serverEnd.close()
        var buffer = Data()
        let handle = output.fileHandleForReading
        // Other lines (the demo web page's) may come first.
        func listeningLine() -> Substring? {
            String(decoding: buffer, as: UTF8.self).split(separator: "\n").first { $0.contains("listening on http://") }
        }
        while listeningLine() == nil {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        guard let line = listeningLine(), let range = line.range(of: "http://") else { throw POSIXError(.ECONNREFUSED) }
        url = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func stop() {
        // SIGKILL, so a server that does not act on SIGTERM cannot hang the test.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs blocking work (a process wait, a polling loop) on a thread of its own. On Swift's cooperative
/// threads — two on a two-core machine — it would stall every async test running beside it: a long
/// UI scenario's wait, or the in-process servers whose clients then time out.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

extension ServerProcess {
    /// The wrong keys this server was sent, from its `--test-controls` record: a key that reached the wrong
    /// server shows up here.
    public func wrongKeys(via sandbox: CLISandbox) async throws -> [String] {
        let reply = try await sandbox.run(["-s", url + "/__reference/wrong-keys"], executable: "/usr/bin/curl")
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any],
            let keys = object["wrong_keys"] as? [String]
        else { throw UnexpectedReply(text: reply.stdout + reply.stderr) }
        return keys
    }

    public struct UnexpectedReply: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "unexpected reply: \(text)" }
    }
}

/// A FAKE org.freedesktop.Notifications daemon on the session bus (`Tests/Fakes/fake-notifications.py`): no
/// notification daemon runs here. One for the whole test process, since the bus name has one owner: it logs
/// each notification as a JSON line to `log`, with the sending app's unique bus name, so that apps running at
/// once each read their own. It ends with the test process.
public final class FakeNotifications: Sendable {
    public static let shared = Result { try FakeNotifications() }

    public let log: URL

    private init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("bos-notifications-\(UUID().uuidString).jsonl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fakes/fake-notifications.py").path, log.path,
        ]
        let ready = Pipe()
        process.standardOutput = ready
        // Not the test process's own output: `swift test` reads that until every holder has closed it.
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // "ready": the name is owned; nothing (the fake ended) when another process owns it.
        guard !ready.fileHandleForReading.availableData.isEmpty else { throw POSIXError(.EADDRINUSE) }
    }
}
