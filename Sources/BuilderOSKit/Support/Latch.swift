import Synchronization

/// A one-way signal: `wait()` returns once `open()` has been called, and at once after that.
/// Opened from any thread, any number of times (only the first counts).
public final class Latch: Sendable {
    private enum State {
        case closed([CheckedContinuation<Void, Never>])
        case open
    }

    private let state = Mutex(State.closed([]))

    public init() {}

    public func open() {
        let waiting: [CheckedContinuation<Void, Never>] = state.withLock { state in
            guard case .closed(let waiting) = state else { return [] }
            state = .open
            return waiting
        }
        waiting.forEach { $0.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openAlready: Bool = state.withLock { state in
                guard case .closed(var waiting) = state else { return true }
                waiting.append(continuation)
                state = .closed(waiting)
                return false
            }
            if openAlready { continuation.resume() }
        }
    }
}
