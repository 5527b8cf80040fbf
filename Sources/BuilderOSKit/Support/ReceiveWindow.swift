import Foundation

/// Flow control for a socket whose reader is faster than its consumer (a terminal flooded by
/// `yes`): the reading thread may run at most `limit` bytes ahead of what the consumer has taken.
/// Past that it waits — the socket is not read, TCP's window closes, and the sender (the server's
/// PTY reader, and with it the program writing) slows down to what the consumer can show. Memory
/// stays bounded by `limit` however much is sent.
final class ReceiveWindow: @unchecked Sendable {
    let limit: Int
    private let condition = NSCondition()
    private var outstanding = 0
    private var open = true
    private var wakeups = 0

    init(limit: Int) { self.limit = limit }

    /// Reading thread: `count` bytes were handed to the consumer. Waits while the consumer is too far
    /// behind, until it catches up, `wake()` is called (something to send), or the window is closed.
    /// `whileWaiting` runs on the reading thread each time the wait is woken.
    func admit(_ count: Int, whileWaiting: () -> Void = {}) {
        condition.lock()
        outstanding += count
        while open, outstanding > limit {
            let seen = wakeups
            condition.wait()
            if wakeups != seen {
                condition.unlock()
                whileWaiting()
                condition.lock()
            }
        }
        condition.unlock()
    }

    /// Consumer: `count` bytes were shown (never more than were admitted).
    func release(_ count: Int) {
        condition.lock()
        outstanding = max(0, outstanding - count)
        if outstanding <= limit { condition.broadcast() }
        condition.unlock()
    }

    /// Interrupts a wait so the reading thread can do other work (send a keystroke) and wait again.
    func wake() {
        condition.lock()
        wakeups &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// No more waiting, ever: the socket is closing.
    func close() {
        condition.lock()
        open = false
        condition.broadcast()
        condition.unlock()
    }

    /// Bytes handed over and not yet shown (for tests).
    var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return outstanding
    }
}
