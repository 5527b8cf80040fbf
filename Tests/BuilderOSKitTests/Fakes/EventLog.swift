@testable import BuilderOSKit

/// Everything an `Observers` list announced, kept in order, so a test can wait for the next event
/// that matches instead of sleeping. Register it before the action that causes the event.
@MainActor
final class EventLog<Value: Sendable> {
    private var recording = Recording<Value>()

    init(_ observers: Observers<Value>) {
        observers.add(owner: self) { [unowned self] value in self.recording.append(value) }
    }

    var all: [Value] { recording.all }

    /// The first event after the last one returned that matches (waits for it if need be).
    func next(where match: @escaping (Value) -> Bool) async -> Value {
        if let found = recording.take(where: match) { return found }
        return await withCheckedContinuation { recording.wait(for: match, $0) }
    }
}
