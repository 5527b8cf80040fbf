import Foundation

/// How a terminal tab hands what arrives to VTE without holding the window up.
///
/// VTE parses everything it has been fed in one pass, inside one main-loop dispatch (while output
/// flows, a pass every 30 ms). Fed freely, a flood makes each pass parse whatever piled up since the
/// last: hundreds of milliseconds with the window frozen. So a tab feeds one *helping* per pass and
/// waits for the pass (VTE's `contents-changed`) before the next; the helping is sized from how long
/// VTE took on the last one, aiming at `passBudget`. Output that changes nothing on screen brings no
/// `contents-changed`, so a tab also gives up waiting after a moment (`passTimedOut`).
public struct TerminalOutputPacer: Sendable {
    /// What one VTE pass may take: well inside the 50 ms in which a window still feels responsive.
    public static let passBudget = 0.010
    public static let minimumHelping = 4 * 1024
    public static let maximumHelping = 1 << 20

    public private(set) var helping = 32 * 1024
    /// A helping is with VTE and its pass has not been seen yet.
    public private(set) var awaitingPass = false
    private var queue: [Data] = []
    private var head = 0
    private var fed = 0

    public init() {}

    public var hasPending: Bool { head < queue.count }

    public mutating func receive(_ data: Data) {
        guard !data.isEmpty else { return }
        queue.append(data)
    }

    /// The next helping (at most `helping` bytes, in order), or nil while a pass is awaited or nothing waits.
    public mutating func nextHelping() -> Data? {
        guard !awaitingPass, hasPending else { return nil }
        var out = Data()
        while out.count < helping, head < queue.count {
            let first = queue[head]
            let take = min(first.count, helping - out.count)
            out.append(first.prefix(take))
            if take == first.count {
                head += 1
            } else {
                queue[head] = first.dropFirst(take)
            }
        }
        // Drop what was taken once it is most of the array, so the queue does not grow for ever.
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        fed = out.count
        awaitingPass = true
        return out
    }

    /// VTE finished a pass; `took` seconds, as measured in the dispatch that ran it. A helping that
    /// filled its size tells how many bytes fit the budget: the size moves halfway there.
    public mutating func passFinished(took: Double) {
        guard awaitingPass else { return }
        awaitingPass = false
        guard fed * 2 >= helping, took > 0 else { return }
        let fits = Double(fed) * Self.passBudget / took
        let next = (Double(helping) + fits) / 2
        helping = Int(min(Double(Self.maximumHelping), max(Double(Self.minimumHelping), next)))
    }

    /// No pass was seen in time (the helping changed nothing on screen): the next may go.
    public mutating func passTimedOut() {
        awaitingPass = false
    }
}
