import Foundation
import Testing

@testable import BuilderOSKit

/// When a connection change becomes a notification, with a fake wait (no clock), and a reply's preview.
@MainActor
struct SessionNoticesTests {
    let server = try! ServerAddress.parse("https://builder.example.com")

    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var pending: [CheckedContinuation<Void, Never>] = []
        var count: Int { lock.withLock { pending.count } }
        func sleep(_ seconds: Double) async { await withCheckedContinuation { c in lock.withLock { pending.append(c) } } }
        /// The settle time passes for every wait begun so far.
        func elapse() {
            lock.withLock {
                defer { pending = [] }; return pending
            }.forEach { $0.resume() }
        }
    }

    func snapshot(_ connected: Bool, wants: Bool = true) -> ConnectionSnapshot {
        var s = ConnectionSnapshot(server: server, wantsConnection: wants)
        s.socket = connected ? .connected : .disconnected
        return s
    }

    func settle() async { for _ in 0..<200 { await Task.yield() } }

    @Test func aLossThatHoldsIsAnnouncedOnceAndTheReturnToo() async {
        let waits = Waits()
        let notices = ConnectionNotices(sleep: { await waits.sleep($0) })
        var said: [SessionNotice] = []
        notices.notices.add(owner: notices) { said.append($0) }
        notices.observe(snapshot(true))
        #expect(waits.count == 0, "the state at start is not news")
        notices.observe(snapshot(false))
        await settle()
        waits.elapse()
        await settle()
        #expect(said.count == 1)
        if case .connectionLost = said.first {} else { Issue.record("a lost connection is announced: \(said)") }
        notices.observe(snapshot(true))
        await settle()
        waits.elapse()
        await settle()
        #expect(said.last == .connectionRestored && said.count == 2)
    }

    @Test func aFlapWithinTheSettleTimeSaysNothing() async {
        let waits = Waits()
        let notices = ConnectionNotices(sleep: { await waits.sleep($0) })
        var said: [SessionNotice] = []
        notices.notices.add(owner: notices) { said.append($0) }
        notices.observe(snapshot(true))
        notices.observe(snapshot(false))
        await settle()
        notices.observe(snapshot(true))  // back before the loss held
        await settle()
        waits.elapse()
        await settle()
        #expect(said.isEmpty, "\(said)")
    }

    @Test func theUsersOwnDisconnectIsNotNews() async {
        let waits = Waits()
        let notices = ConnectionNotices(sleep: { await waits.sleep($0) })
        var said: [SessionNotice] = []
        notices.notices.add(owner: notices) { said.append($0) }
        notices.observe(snapshot(true))
        notices.observe(snapshot(false, wants: false))
        await settle()
        waits.elapse()
        await settle()
        #expect(said.isEmpty && waits.count == 0)
    }

    @Test func aReplysPreviewIsItsFirstLineWithoutHeadingMarks() {
        #expect(ReplyNotice.preview(of: "\n\n## Done\nmore") == "Done")
        #expect(ReplyNotice.preview(of: String(repeating: "a", count: 300)).count == 140)
        #expect(ReplyNotice.preview(of: "  \n") == "")
    }
}
