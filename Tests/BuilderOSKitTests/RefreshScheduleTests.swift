import Foundation
import Testing

@testable import BuilderOSKit

/// The session's one auto-refresh schedule: the interval rule, and the loop with a fake sleep (no clock).
@MainActor
struct RefreshScheduleTests {
    @Test func theIntervalRule() {
        #expect(RefreshSchedule.interval(chosen: 0, powerSaver: false) == nil, "0 means off")
        #expect(RefreshSchedule.interval(chosen: 60, powerSaver: false) == 60)
        #expect(RefreshSchedule.interval(chosen: 60, powerSaver: true) == 240, "four times slower on power saver")
        #expect(RefreshSchedule.interval(chosen: 5, powerSaver: false) == 15, "never more often than every 15 s")
    }

    /// Records each wait it is asked for and lets it end only when the test says so.
    final class FakeSleep: @unchecked Sendable {
        private let lock = NSLock()
        private var waits: [Double] = []
        private var pending: [CheckedContinuation<Void, Never>] = []
        var asked: [Double] { lock.withLock { waits } }
        func sleep(_ seconds: Double) async {
            await withCheckedContinuation { continuation in
                lock.withLock {
                    waits.append(seconds); pending.append(continuation)
                }
            }
        }
        /// Ends the oldest wait.
        func elapse() { lock.withLock { pending.isEmpty ? nil : pending.removeFirst() }?.resume() }
    }

    func until(_ condition: () -> Bool) async { for _ in 0..<10_000 where !condition() { await Task.yield() } }

    @Test func tellsSubscribersEachTimeAndFollowsTheSettings() async {
        let clock = FakeSleep()
        let schedule = RefreshSchedule(chosenSeconds: 60, sleep: { await clock.sleep($0) })
        var due = 0
        let owner = NSObject()
        schedule.due.add(owner: owner) { due += 1 }
        schedule.start()
        await until { clock.asked.count == 1 }
        #expect(clock.asked == [60] && due == 0)
        clock.elapse()
        await until { due == 1 && clock.asked.count == 2 }
        #expect(due == 1)
        schedule.powerSaver = true
        await until { clock.asked.last == 240 }
        #expect(clock.asked.last == 240, "the power saver restarts the wait, four times longer")
        schedule.chosenSeconds = 0
        clock.elapse(); clock.elapse()
        for _ in 0..<100 { await Task.yield() }
        #expect(due == 1, "off: nothing is due any more (the cancelled waits end without a refresh)")
        schedule.stop()
    }
}
