@testable import BuilderOSKit

/// Everything an `Observers` list announced, kept in order, so a test can wait for the next event
/// that matches instead of sleeping. Register it before the action that causes the event.
@MainActor
final class EventLog<Value: Sendable> {
    private var seen: [Value] = []
    private var cursor = 0
    private var waiter: (match: (Value) -> Bool, continuation: CheckedContinuation<Value, Never>)?

    init(_ observers: Observers<Value>) {
        observers.add(owner: self) { [unowned self] value in self.record(value) }
    }

    var all: [Value] { seen }

    /// The first event after the last one returned that matches (waits for it if need be).
    func next(where match: @escaping (Value) -> Bool) async -> Value {
        if let index = seen[cursor...].firstIndex(where: match) {
            cursor = index + 1
            return seen[index]
        }
        return await withCheckedContinuation { waiter = (match, $0) }
    }

    private func record(_ value: Value) {
        seen.append(value)
        guard let waiting = waiter, waiting.match(value) else { return }
        waiter = nil
        cursor = seen.count
        waiting.continuation.resume(returning: value)
    }
}
