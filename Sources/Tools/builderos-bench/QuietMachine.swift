import Foundation

/// Waits, before a measured start, until the machine has been quiet for a moment: a start leaves
/// work behind it in the display server (mutter compositing the frame and the window's removal;
/// the X server freeing a client's resources), and a user starts the app on a quiet desktop.
enum QuietMachine {
    /// Returns once the cores were busy for no more than `busyShare` of a `window`-long stretch
    /// (kernel ticks from `/proc/stat`, all cores), or after `limit` seconds at most.
    /// Returns the seconds it waited.
    @discardableResult
    static func wait(window: Double = 0.1, busyShare: Double = 0.05, limit: Double = 2) -> Double {
        let start = Date()
        var before = ticks()
        while Date().timeIntervalSince(start) < limit {
            usleep(UInt32(window * 1_000_000))
            let after = ticks()
            let total = after.total - before.total
            if total > 0, Double(after.busy - before.busy) / Double(total) <= busyShare { break }
            before = after
        }
        return Date().timeIntervalSince(start)
    }

    /// All cores' ticks since boot from `/proc/stat`'s first line, and those not idle or waiting for I/O.
    private static func ticks() -> (total: Int, busy: Int) {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first
        else { return (0, 0) }
        // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user).
        let fields = line.split(separator: " ").dropFirst().prefix(8).compactMap { Int($0) }
        guard fields.count == 8 else { return (0, 0) }
        let total = fields.reduce(0, +)
        return (total, total - fields[3] - fields[4])
    }
}
