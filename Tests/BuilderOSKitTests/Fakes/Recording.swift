/// What a fake or a log has seen, in order, and the one waiter for the next match, so a test waits
/// for the event its step causes instead of sleeping. Not isolated itself: its owner (an actor, or
/// the main actor) keeps it.
struct Recording<Value: Sendable> {
    private(set) var all: [Value] = []
    private var cursor = 0
    private var waiter: (match: (Value) -> Bool, continuation: CheckedContinuation<Value, Never>)?

    /// The first value after the last one returned that matches, if it came already.
    mutating func take(where match: (Value) -> Bool) -> Value? {
        guard let index = all[cursor...].firstIndex(where: match) else { return nil }
        cursor = index + 1
        return all[index]
    }

    /// Resumes `continuation` with the next matching value to arrive.
    mutating func wait(for match: @escaping (Value) -> Bool, _ continuation: CheckedContinuation<Value, Never>) {
        waiter = (match, continuation)
    }

    mutating func append(_ value: Value) {
        all.append(value)
        guard let waiting = waiter, waiting.match(value) else { return }
        waiter = nil
        cursor = all.count
        waiting.continuation.resume(returning: value)
    }
}
