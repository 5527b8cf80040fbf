import BuilderOSKit
import Foundation

/// How the servers without a session are, for the switcher and the tray: a light status request each
/// (`ServerProbe`, with that server's own key) at the active session's refresh interval — none while the computer
/// saves power (`ServerEntry.pollsOthers`) — and whenever the switcher opens. A server this computer has no route to
/// (`ServerRoute`) is asked nothing and shown offline, as a session of it would be. `changes` fires when an
/// answer (or a session's state) changed what a list shows.
@MainActor
final class ServerStates {
    private(set) var probed: [String: ServerReachability] = [:]
    let changes = Observers<Void>()
    private var probing: Task<Void, Never>?
    /// Ties the subscriptions to one session's schedule and connections: replaced when the active session is.
    private var feed = NSObject()

    /// Follows the active session: its refresh schedule paces the requests; every session's state is news.
    func follow(_ active: AppSession, others: [AppSession], servers: @escaping @MainActor () -> [ServerProfile]) {
        feed = NSObject()
        active.connection.refreshSchedule.due.add(owner: feed) { [weak self, weak active] in
            guard let self, ServerEntry.pollsOthers(active?.connection.snapshot) else { return }
            check(servers())
        }
        for session in [active] + others { session.connection.changes.add(owner: feed) { [weak self] _ in self?.changes.notify(()) } }
    }

    /// Asks each of `servers` once (a check already running is replaced), and shows each answer as it comes:
    /// a server that takes its time holds up only its own dot.
    func check(_ servers: [ServerProfile]) {
        probing?.cancel()
        guard !servers.isEmpty else { return }
        let answers = ServerProbe.answers(servers) { await ServerRoute.exists(to: $0) }
        probing = Task { [weak self] in
            for await (id, answer) in answers {
                guard let self, !Task.isCancelled else { return }
                probed[id] = answer
                changes.notify(())
            }
        }
    }

    func forget(_ id: String) { probed.removeValue(forKey: id) }
}
