import Foundation
import Testing

@testable import BuilderOSKit
@testable import ReferenceServer

/// The terminal socket over loopback against the reference server's real PTY: a command's output,
/// the size sent, Ctrl-C, a wrong key, the route absent, a dropped socket and a new one, and the
/// shell's processes gone once the socket closes.
@Suite(.serialized)
struct TerminalSocketTests {
    /// Collects a terminal's output until `marker` shows up (or the time is up).
    final class Screen: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        private(set) var closed: TerminalEvent?
        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

        init(_ connection: TerminalConnection) {
            Task {
                for await event in connection.events {
                    switch event {
                    case .output(let data):
                        self.lock.withLock { self.bytes.append(data) }
                        connection.shown(data.count)
                    case .closed: self.lock.withLock { self.closed = event }
                    }
                }
            }
        }

        var hasClosed: Bool { lock.withLock { closed != nil } }

        func wait(for marker: String, seconds: Double = 10) async -> Bool {
            let end = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < end {
                if text.contains(marker) { return true }
                try? await Task.sleep(nanoseconds: 20_000_000)
            }
            return text.contains(marker)
        }
    }

    func open(_ server: RunningServer, key: String? = nil) async throws -> (TerminalConnection, Screen) {
        let connection = try await TerminalConnection.open(server: server.address, apiKey: key ?? server.key)
        return (connection, Screen(connection))
    }

    func type(_ connection: TerminalConnection, _ text: String) { connection.send(Data(text.utf8)) }

    @Test func aCommandsOutputArrives() async throws {
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        let (terminal, screen) = try await open(server)
        defer { terminal.close() }
        // The marker is computed by the shell, so the echo of what was typed cannot satisfy the test.
        type(terminal, "echo bos-$((6*7))-ok\r")
        #expect(await screen.wait(for: "bos-42-ok"), "\(screen.text)")
        type(terminal, "pwd\r")
        #expect(await screen.wait(for: NSHomeDirectory()), "the shell starts in the home folder")
    }

    @Test func sttySizeReportsTheSizeSent() async throws {
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        let (terminal, screen) = try await open(server)
        defer { terminal.close() }
        terminal.resize(rows: 33, cols: 101)
        type(terminal, "stty size\r")
        #expect(await screen.wait(for: "33 101"), "\(screen.text)")
        terminal.resize(rows: 50, cols: 132)
        type(terminal, "stty size\r")
        #expect(await screen.wait(for: "50 132"), "\(screen.text)")
    }

    @Test func ctrlCInterrupts() async throws {
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        let (terminal, screen) = try await open(server)
        defer { terminal.close() }
        // The program says it is running once it holds the terminal (a job's child takes the terminal itself before
        // it runs anything): a Ctrl-C pressed while bash was still handing it over reached neither, and bash then
        // waited for a `sleep` that nothing would interrupt.
        type(terminal, "bash -c 'echo running-$((2*2)); exec sleep 600'; echo not-$((1+1))-interrupted\r")
        #expect(await screen.wait(for: "running-4"), "\(screen.text)")
        // A busy machine can still drop a keystroke's effect; a user then presses Ctrl-C again.
        var answered = false
        for _ in 0..<3 where !answered {
            try await Task.sleep(nanoseconds: 300_000_000)
            terminal.send(Data([0x03]))
            type(terminal, "echo after-$((3*3))\r")
            answered = await screen.wait(for: "after-9", seconds: 5)
        }
        #expect(answered, "the shell takes commands again after Ctrl-C: \(screen.text)")
        #expect(!screen.text.contains("not-2-interrupted"))
    }

    /// Flow control: while nothing is reported shown, a flood is read no further than the receive window
    /// (plus frames in flight) however much the shell writes; a Ctrl-C still gets out; once shown, the rest
    /// arrives. Without it, 30 MB over loopback pile up in memory within a second.
    @Test func aFloodIsHeldBackUntilShown() async throws {
        final class Held: @unchecked Sendable {
            private let lock = NSLock()
            private var bytes = Data()
            private var releasing = false
            var count: Int { lock.withLock { bytes.count } }
            var text: String { lock.withLock { String(decoding: bytes.suffix(4096), as: UTF8.self) } }
            /// Returns how much to report shown now.
            func add(_ data: Data) -> Int {
                lock.withLock {
                    bytes.append(data); return releasing ? data.count : 0
                }
            }
            func startReleasing() -> Int {
                lock.withLock {
                    releasing = true; return bytes.count
                }
            }
        }
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        let terminal = try await TerminalConnection.open(server: server.address, apiKey: server.key)
        defer { terminal.close() }
        let held = Held()
        Task { for await case .output(let data) in terminal.events { terminal.shown(held.add(data)) } }
        type(terminal, "yes | head -c 30000000; echo flood-$((2*3))-end\r")
        let end = ContinuousClock.now + .seconds(20)
        while held.count < TerminalConnection.receiveWindow, ContinuousClock.now < end { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(held.count >= TerminalConnection.receiveWindow, "the window's worth arrives")
        try await Task.sleep(nanoseconds: 1_000_000_000)
        #expect(held.count <= TerminalConnection.receiveWindow + (1 << 20), "held back at the window: \(held.count) bytes read")
        terminal.send(Data([0x03]))
        type(terminal, "echo after-$((3*3))\r")
        terminal.shown(held.startReleasing())
        while !held.text.contains("after-9"), ContinuousClock.now < end + .seconds(20) { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(held.text.contains("after-9"), "the shell answers once the output is shown")
        #expect(held.count < 30_000_000, "Ctrl-C reached the shell while its output was held back")
    }

    @Test func aWrongKeyIsRefused() async throws {
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        await #expect(throws: BuilderOSError.unauthorized) { _ = try await TerminalConnection.open(server: server.address, apiKey: TestKeys.make()) }
        #expect(server.state.openTerminals == 0, "no shell for a wrong key")
    }

    @Test func aServerWithoutTheRouteSaysSo() async throws {
        let server = try await RunningServer.start(terminal: false)
        defer { Task { await server.stop() } }
        await #expect(throws: BuilderOSError.notAvailableOnServer) {
            _ = try await TerminalConnection.open(server: server.address, apiKey: server.key)
        }
    }

    @Test func theShellExitingClosesTheSocketNormally() async throws {
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        let (terminal, screen) = try await open(server)
        type(terminal, "exit\r")
        let end = ContinuousClock.now + .seconds(10)
        while !screen.hasClosed, ContinuousClock.now < end { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(screen.closed == .closed(shellExited: true))
    }

    /// The shell and a background job it started (in a process group of its own) are gone once the
    /// socket closes; a new socket gets a new shell.
    @Test func droppedSocketEndsItsProcessesAndANewOneWorks() async throws {
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        let (terminal, screen) = try await open(server)
        type(terminal, "sleep 600 & echo jobs-$$-$!-started\r")
        // The typed line is echoed too ("jobs-$$-$!-started"): wait for the numbers.
        let end = ContinuousClock.now + .seconds(10)
        while screen.text.firstMatch(of: /jobs-(\d+)-(\d+)-started/) == nil, ContinuousClock.now < end {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let pids = try #require(screen.text.firstMatch(of: /jobs-(\d+)-(\d+)-started/).map { [pid_t($0.1)!, pid_t($0.2)!] })
        #expect(pids.allSatisfy(Self.alive), "the shell and its job run")
        terminal.close()
        while pids.contains(where: Self.alive), ContinuousClock.now < end { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(!pids.contains(where: Self.alive), "the shell \(pids[0]) and its job \(pids[1]) are gone")
        while server.state.openTerminals > 0, ContinuousClock.now < end { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(server.state.openTerminals == 0)

        let (again, newScreen) = try await open(server)
        defer { again.close() }
        type(again, "echo new-$$-shell\r")
        #expect(await newScreen.wait(for: "-shell"))
        #expect(!newScreen.text.contains("new-\(pids[0])-shell"), "a new shell, not the old one")
    }

    /// Running (a zombie waiting for a parent that does not reap, as PID 1 in a container may not, has ended).
    static func alive(_ pid: pid_t) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/stat"), let data = try? handle.readToEnd() else { return false }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        return !text[text.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    @Test func terminalsAreCapped() async throws {
        let server = try await RunningServer.start(terminal: true)
        defer { Task { await server.stop() } }
        var open: [TerminalConnection] = []
        for _ in 0..<ServerState.terminalLimit { open.append(try await self.open(server).0) }
        defer { open.forEach { $0.close() } }
        await #expect(throws: BuilderOSError.self) { _ = try await TerminalConnection.open(server: server.address, apiKey: server.key) }
    }

    @Test func resizeFramesAreRecognised() {
        #expect(
            TerminalResize(Array(#"{"type":"resize","rows":40,"cols":120}"#.utf8))
                == TerminalResize(Array(#"{"rows":40,"cols":120,"type":"resize"}"#.utf8)))
        #expect(TerminalResize(Array(#"{"type":"resize","rows":40,"cols":120}"#.utf8))?.rows == 40)
        #expect(TerminalResize(Array("ls -la\r".utf8)) == nil)
        #expect(TerminalResize(Array(#"{"type":"resize","rows":0,"cols":120}"#.utf8)) == nil)
        #expect(TerminalResize(Array(#"{"type":"other"}"#.utf8)) == nil)
        #expect(TerminalSize(rows: 40, cols: 120).frame == #"{"type":"resize","rows":40,"cols":120}"#)
    }
}
