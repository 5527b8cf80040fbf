/// A list of observers of a value. Each observer is tied to an owner object and dropped when the
/// owner goes away, so a closed window never receives updates and never has to unsubscribe.
@MainActor
public final class Observers<Value> {
    private struct Entry {
        weak var owner: AnyObject?
        let handler: @MainActor (Value) -> Void
    }

    private var entries: [Entry] = []

    public init() {}

    public func add(owner: AnyObject, _ handler: @escaping @MainActor (Value) -> Void) {
        entries.append(Entry(owner: owner, handler: handler))
    }

    public func notify(_ value: Value) {
        entries.removeAll { $0.owner == nil }
        for entry in entries where entry.owner != nil { entry.handler(value) }
    }

    public var count: Int { entries.filter { $0.owner != nil }.count }
}
