import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Several servers: the header's switcher lists them (`ServerDirectory`), a switch shows another server in the
/// same window, and the server left keeps its session in the background.
extension DesktopApplication: ServerDirectory {
    func serverEntries() -> [ServerEntry] {
        let active = activeServerID
        return account.settingsStore.load().servers.map { profile in
            ServerEntry(
                profile: profile, active: profile.id == active, snapshot: liveSession(of: profile)?.connection.snapshot,
                probe: serverStates.probed[profile.id])
        }
    }

    var serverChanges: Observers<Void> { serverStates.changes }

    /// A light status request to each server without a session.
    func checkServers() { serverStates.check(serversWithoutSession()) }

    private func liveSession(of profile: ServerProfile) -> AppSession? {
        session?.server.baseURL == profile.address ? session : background[profile.id]?.session
    }

    private func serversWithoutSession() -> [ServerProfile] {
        account.settingsStore.load().servers.filter { liveSession(of: $0) == nil }
    }

    /// The switcher and the tray follow the active session and every session in the background.
    func followServers() {
        guard let session else { return }
        serverStates.follow(session, others: background.values.map(\.session)) { [weak self] in self?.serversWithoutSession() ?? [] }
        serverStates.changes.notify(())
        checkServers()
    }

    var activeServerID: String? { session.flatMap { account.settingsStore.load().server(at: $0.server)?.id } }

    public func switchServer(to id: String) {
        guard let profile = account.settingsStore.load().servers.first(where: { $0.id == id }), let server = profile.server else { return }
        show(server)
    }

    /// A notification's click: its server in the main window (switching to it if another is shown), and the reply's
    /// conversation. A server forgotten since is nothing to show: the window comes back as it is.
    func showFromNotification(server id: String, conversation: UUID? = nil) {
        if id != activeServerID, account.settingsStore.load().servers.contains(where: { $0.id == id }) { switchServer(to: id) }
        activate()
        guard let conversation, id == activeServerID else { return }
        mainWindow?.openConversation(conversation)
    }

    func addServer() {
        if let wizard { return wizard.present() }
        openWizard(prefill: "", startAt: .welcome, adding: true)
    }

    /// Makes `server` the active one and shows it in the main window: its own session when it has one in the
    /// background (its last conversation at once), else a new one (`key` when just signed in, else the keyring's).
    /// The session shown before keeps running in the background; a new key for a server ends its old session.
    func show(_ server: ServerAddress, key: SessionKey? = nil) {
        let settings = account.settingsStore.load()
        guard let profile = settings.server(at: server) else { return }
        if settings.activeServerID != profile.id { try? account.use(id: profile.id) }
        if let session, session.server == server {
            guard key != nil else { return mainWindow?.present() ?? () }
            endSession()
        } else {
            parkSession()
        }
        if key != nil { background.removeValue(forKey: profile.id)?.end() }
        if let parked = background.removeValue(forKey: profile.id) {
            adopt(parked)
            openMainWindow(server: server, key: parked.session.key)
            return
        }
        let sessionKey = key ?? SessionKey(server: server, credentials: account.credentials, waitingForStart: true)
        openMainWindow(server: server, key: sessionKey)
        if key == nil { Task { await confirmKey(sessionKey, of: server) } }
    }

    /// The active session goes to the background, still connected; the window no longer shows it. It keeps its
    /// monitors: offline, it waits for the network like the active one; on power saver, it refreshes less often.
    private func parkSession() {
        guard let session, let notifier, let id = account.settingsStore.load().server(at: session.server)?.id else { return }
        background[id] = ParkedSession(session: session, notifier: notifier, monitors: monitors)
        monitors = nil
        detachSession()
    }
}

/// A server's session in the background, with what goes on for it there: its notifications, and the desktop's network
/// and power monitors feeding its connection.
@MainActor
struct ParkedSession {
    let session: AppSession
    let notifier: SessionNotifier
    let monitors: SystemMonitors?

    func end() {
        PageWindow.close(showing: session)
        session.connection.refreshSchedule.stop()
        session.connection.disconnect()
        monitors?.stop()
    }
}
