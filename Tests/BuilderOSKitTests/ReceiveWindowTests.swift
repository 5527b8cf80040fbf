import Foundation
import Testing

@testable import BuilderOSKit

/// The terminal socket's flow control, without a socket: the reading side waits past the window until
/// the consumer catches up, is woken to send, and never waits once the window is closed. No sleeps:
/// the reader's `whileWaiting` hook proves it is waiting.
struct ReceiveWindowTests {
    /// Runs `admit` on a thread of its own (as the socket's worker does) and reports when it returned.
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var returned = false
        private var wokenCount = 0
        let done = DispatchSemaphore(value: 0)
        var hasReturned: Bool { lock.withLock { returned } }
        var woken: Int { lock.withLock { wokenCount } }

        init(_ window: ReceiveWindow, admitting count: Int) {
            Thread { [self] in
                window.admit(count) { self.lock.withLock { self.wokenCount += 1 } }
                lock.withLock { returned = true }
                done.signal()
            }.start()
        }

        /// Wakes the reader until it reports a wake: only a waiting reader does.
        func waitUntilWaiting(_ window: ReceiveWindow) {
            while woken == 0, !hasReturned { window.wake(); usleep(1000) }
        }
    }

    @Test func withinTheWindowNothingWaits() {
        let window = ReceiveWindow(limit: 100)
        window.admit(60)
        window.admit(40)
        #expect(window.pending == 100)
    }

    @Test func pastTheWindowTheReaderWaitsUntilShown() {
        let window = ReceiveWindow(limit: 100)
        window.admit(90)
        let reader = Reader(window, admitting: 50)
        reader.waitUntilWaiting(window)
        #expect(reader.woken > 0 && !reader.hasReturned, "140 bytes outstanding: the reader waits")
        window.release(30)
        #expect(window.pending == 110)
        #expect(!reader.hasReturned, "still 10 bytes past the window")
        window.release(10)
        reader.done.wait()
        #expect(reader.hasReturned && window.pending == 100)
    }

    @Test func closingEndsEveryWait() {
        let window = ReceiveWindow(limit: 10)
        let reader = Reader(window, admitting: 1_000)
        reader.waitUntilWaiting(window)
        window.close()
        reader.done.wait()
        #expect(reader.hasReturned)
        window.admit(1_000_000)
        #expect(window.pending == 1_001_000, "a closed window counts but never waits")
    }

    @Test func showingMoreThanAdmittedDoesNotGoNegative() {
        let window = ReceiveWindow(limit: 10)
        window.admit(5)
        window.release(50)
        #expect(window.pending == 0)
    }
}
