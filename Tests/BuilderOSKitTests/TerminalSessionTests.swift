import Foundation
import Testing

@testable import BuilderOSKit

/// The terminal tab's state machine with a fake link: no sockets, no sleeps (the backoff is a
/// microsecond).
@MainActor
struct TerminalSessionTests {
    /// A fake terminal socket: records what was sent, and lets the test push output or close it.
    final class FakeLink: TerminalLink, @unchecked Sendable {
        let events: AsyncStream<TerminalEvent>
        private let continuation: AsyncStream<TerminalEvent>.Continuation
        private let lock = NSLock()
        private var log: [String] = []
        private var shownBytes = 0
        var sent: [String] { lock.withLock { log } }
        var shown: Int { lock.withLock { shownBytes } }

        init() { (events, continuation) = AsyncStream.makeStream() }
        func send(_ bytes: Data) { lock.withLock { log.append(String(decoding: bytes, as: UTF8.self)) } }
        func resize(rows: Int, cols: Int) { lock.withLock { log.append("resize \(rows)x\(cols)") } }
        func shown(_ count: Int) { lock.withLock { shownBytes += count } }
        func close() { continuation.yield(.closed(shellExited: false)); continuation.finish() }
        func output(_ text: String) { continuation.yield(.output(Data(text.utf8))) }
        func drop() { continuation.finish() }
        func exitShell() { continuation.yield(.closed(shellExited: true)); continuation.finish() }
    }

    /// Hands out prepared links (or errors) in order.
    final class Connector: @unchecked Sendable {
        private let lock = NSLock()
        private var queue: [Result<FakeLink, BuilderOSError>]
        private(set) var attempts = 0
        init(_ queue: [Result<FakeLink, BuilderOSError>]) { self.queue = queue }
        func next() throws(BuilderOSError) -> any TerminalLink {
            let result = lock.withLock { () -> Result<FakeLink, BuilderOSError> in
                attempts += 1
                return queue.isEmpty ? .failure(.connectionRefused) : queue.removeFirst()
            }
            return try result.get()
        }
    }

    static let instant = Backoff(base: 0.000_001, maximum: 0.000_001)

    func session(_ connector: Connector, command: String = "claude") -> TerminalSession {
        TerminalSession(startCommand: command, backoff: Self.instant) { () async throws(BuilderOSError) -> any TerminalLink in try connector.next() }
    }

    func until(_ condition: () -> Bool) async {
        for _ in 0..<10_000 where !condition() { await Task.yield() }
    }

    @Test func connectsTypesTheCommandAndPassesBytes() async {
        let link = FakeLink()
        let s = session(Connector([.success(link)]))
        var shown = ""
        s.output.add(owner: s) { shown += String(decoding: $0, as: UTF8.self) }
        s.resize(rows: 30, cols: 100)
        s.start()
        await until { s.state == .connected && link.sent.count >= 2 }
        #expect(link.sent == ["resize 30x100", "claude\r"], "the size first, then the profile's command")
        link.output("hello")
        s.send(Data("ls\r".utf8))
        await until { shown == "hello" }
        #expect(shown == "hello")
        #expect(link.sent.last == "ls\r")
        s.resize(rows: 30, cols: 100)
        #expect(link.sent.filter { $0.hasPrefix("resize") }.count == 1, "an unchanged size is not sent again")
        #expect(link.shown == 0, "nothing is reported shown before the view shows it")
        s.shown(5)
        #expect(link.shown == 5, "what the view showed reaches the link's flow control")
        s.stop()
    }

    @Test func aDropReconnectsAndTypesTheCommandAgain() async {
        let first = FakeLink(), second = FakeLink()
        let connector = Connector([.success(first), .failure(.connectionRefused), .success(second)])
        let s = session(connector)
        var states: [TerminalState] = []
        s.states.add(owner: s) { states.append($0) }
        s.start()
        await until { s.state == .connected }
        first.drop()
        await until { s.state == .connected && connector.attempts == 3 }
        #expect(states.contains { if case .reconnecting = $0 { return true } else { return false } }, "\(states)")
        #expect(second.sent == ["claude\r"])
        s.stop()
    }

    @Test func givesUpAfterItsAttemptsAndReconnectStartsOver() async {
        let connector = Connector([])
        let s = session(connector)
        s.start()
        await until { if case .disconnected = s.state { return true } else { return false } }
        #expect(s.state == .disconnected(.connectionRefused))
        #expect(connector.attempts == TerminalSession.reconnectAttempts + 1)
    }

    @Test func aServerWithoutTerminalsOrAWrongKeyStopsAtOnce() async {
        for error in [BuilderOSError.notAvailableOnServer, .unauthorized] {
            let connector = Connector([.failure(error)])
            let s = session(connector)
            s.start()
            await until { s.state == .disconnected(error) }
            #expect(s.state == .disconnected(error))
            #expect(connector.attempts == 1)
        }
    }

    @Test func theShellExitingEndsTheTab() async {
        let link = FakeLink()
        let connector = Connector([.success(link)])
        let s = session(connector, command: "")
        s.start()
        await until { s.state == .connected }
        #expect(link.sent.isEmpty, "a Shell tab types nothing")
        link.exitShell()
        await until { s.state == .ended }
        #expect(s.state == .ended)
        #expect(connector.attempts == 1, "no reconnect after exit")
    }

    @Test func startCommandsAreOneLineOrNothing() {
        #expect(TerminalProfile.startBytes(command: "  claude --resume ") == Data("claude --resume\r".utf8))
        #expect(TerminalProfile.startBytes(command: "") == nil)
        #expect(TerminalProfile.startBytes(command: "rm -rf /\u{1b}[A") == nil, "control characters are never typed")
        #expect(TerminalProfile.jarvis.defaultCommand == "claude" && TerminalProfile.codex.defaultCommand == "codex")
    }
}
