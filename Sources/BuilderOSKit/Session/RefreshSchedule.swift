import Foundation

/// When the pages that show the server's state (the Dashboard) refresh on their own: the user's
/// interval from Preferences (0: never), four times slower while the desktop saves power, never
/// more often than every 15 s. One schedule for the session; pages subscribe to `due`.
@MainActor
public final class RefreshSchedule {
    public nonisolated static let shortest: Double = 15
    public nonisolated static let powerSaverFactor: Double = 4

    /// Seconds between refreshes for a chosen interval; nil when auto-refresh is off.
    public nonisolated static func interval(chosen: Int, powerSaver: Bool) -> Double? {
        guard chosen > 0 else { return nil }
        return max(Double(chosen) * (powerSaver ? powerSaverFactor : 1), shortest)
    }

    /// A refresh is due (pages refresh if they are on screen).
    public let due = Observers<Void>()
    public var chosenSeconds: Int { didSet { if chosenSeconds != oldValue { restart() } } }
    public var powerSaver = false { didSet { if powerSaver != oldValue { restart() } } }
    private let sleep: @Sendable (Double) async -> Void
    private var loop: Task<Void, Never>?

    /// `sleep` waits the given seconds (a fake in tests: no clock).
    public init(chosenSeconds: Int, sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }) {
        self.chosenSeconds = chosenSeconds
        self.sleep = sleep
    }

    public func start() { restart() }

    public func stop() {
        loop?.cancel()
        loop = nil
    }

    private func restart() {
        loop?.cancel()
        guard let seconds = Self.interval(chosen: chosenSeconds, powerSaver: powerSaver) else { loop = nil; return }
        let sleep = self.sleep
        loop = Task { [weak self] in
            while !Task.isCancelled {
                await sleep(seconds)
                guard let self, !Task.isCancelled else { return }
                self.due.notify(())
            }
        }
    }
}
