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

    /// Asks each of `servers` once (a check already running is replaced).
    func check(_ servers: [ServerProfile]) {
        probing?.cancel()
        guard !servers.isEmpty else { return }
        probing = Task { [weak self] in
            var routed: [ServerProfile] = []
            var answers: [String: ServerReachability] = [:]
            for server in servers {
                if let address = server.server, await !ServerRoute.exists(to: address) {
                    answers[server.id] = .unreachable(.networkUnreachable)
                } else {
                    routed.append(server)
                }
            }
            for (server, answer) in zip(routed, await ServerProbe.check(routed)) { answers[server.id] = answer }
            guard let self, !Task.isCancelled else { return }
            probed.merge(answers) { $1 }
            changes.notify(())
        }
    }

    func forget(_ id: String) { probed.removeValue(forKey: id) }
}
