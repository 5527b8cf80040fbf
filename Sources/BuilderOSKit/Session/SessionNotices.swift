import Foundation

/// What the session tells the desktop about itself (the app turns these into notifications).
public enum SessionNotice: Equatable, Sendable {
    /// The connection was lost and has stayed lost; `help` says what to do, if anything.
    case connectionLost(help: String?)
    /// It is back after an announced loss.
    case connectionRestored
}

/// Decides when a connection change is news: only once the new state has held for `settleSeconds`
/// (a flapping connection must not flood the desktop), only as a change from what was last
/// announced, and never for the user's own Disconnect. The wait is injected: tests use no clock.
@MainActor
public final class ConnectionNotices {
    public nonisolated static let settleSeconds = 10.0
    public let notices = Observers<SessionNotice>()
    private let sleep: @Sendable (Double) async -> Void
    private var announcedDown = false
    private var last: ConnectionIndicator?
    private var pending: Task<Void, Never>?

    public init(sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }) {
        self.sleep = sleep
    }

    /// Every snapshot the connection publishes.
    public func observe(_ snapshot: ConnectionSnapshot) {
        guard snapshot.indicator != last else { return }
        let first = last == nil
        last = snapshot.indicator
        if first { return }  // the state at start is not a change
        pending?.cancel()
        guard snapshot.wantsConnection else { return }
        let up = snapshot.indicator == .connected
        guard up == announcedDown else { return }
        let help = snapshot.help
        let sleep = self.sleep
        pending = Task { [weak self] in
            await sleep(Self.settleSeconds)
            guard let self, !Task.isCancelled else { return }
            self.announcedDown = !up
            self.notices.notify(up ? .connectionRestored : .connectionLost(help: help))
        }
    }
}

/// A finished reply's notification text: its first non-empty line, without Markdown heading marks,
/// at most 140 characters.
public enum ReplyNotice {
    public static func preview(of text: String) -> String {
        text.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { String($0.prefix(140)).replacingOccurrences(of: "#", with: "").trimmingCharacters(in: .whitespaces) } ?? ""
    }
}
