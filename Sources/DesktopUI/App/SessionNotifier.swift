import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The app's notifications about its session: a reply finished while BuilderOS was not the
/// focused window (with a preview), and the connection lost or restored when the core's
/// `ConnectionNotices` says it is news. With several servers each names its server. Clicking one
/// shows its server in the window (and the reply's conversation). Off in Preferences.
@MainActor
final class SessionNotifier {
    private let notifications: DesktopNotifications
    private let settingsStore: SettingsStore
    private let server: ServerAddress
    private let isFocused: () -> Bool
    private let connectionNotices = ConnectionNotices()

    init(
        application: UnsafeMutablePointer<GtkApplication>, session: AppSession, settingsStore: SettingsStore,
        isFocused: @escaping () -> Bool
    ) {
        notifications = DesktopNotifications(application: application, settingsStore: settingsStore)
        self.settingsStore = settingsStore
        server = session.server
        self.isFocused = isFocused
        session.chat.changes.add(owner: self) { [weak self, weak session] event in
            guard let self, let session, case .messageChanged(let m) = event, m.role == .assistant, m.state == .complete else { return }
            let agent = session.chat.conversation(m.conversation)?.agent ?? .jarvis
            self.replyFinished(m, agent: agent)
        }
        connectionNotices.observe(session.connection.snapshot)
        session.connection.changes.add(owner: self) { [weak self] snapshot in self?.connectionNotices.observe(snapshot) }
        connectionNotices.notices.add(owner: self) { [weak self] notice in self?.send(notice) }
    }

    /// This server's id, and its name when several servers are set up (nil: the notification need not say which).
    private var subject: (id: String, name: String?) {
        let settings = settingsStore.load()
        let profile = settings.server(at: server)
        return (profile?.id ?? "", settings.servers.count > 1 ? profile?.name : nil)
    }

    private func send(_ notice: SessionNotice) {
        let (id, name) = subject
        switch notice {
        case .connectionRestored:
            notifications.send(
                .connection, id: "connection-\(id)",
                title: name.map { L("Connected to %@ again", $0) } ?? L("Connected to BuilderOS again"),
                body: L("Replies and messages waiting to be sent go through again."), click: .server(id))
        case .connectionLost(let help):
            notifications.send(
                .connection, id: "connection-\(id)",
                title: name.map { L("Connection to %@ lost", $0) } ?? L("Connection to BuilderOS lost"),
                body: help ?? L("BuilderOS keeps trying to connect."), click: .server(id))
        }
    }

    private func replyFinished(_ message: ChatMessage, agent: ChatAgent) {
        guard !isFocused() else { return }
        let (id, name) = subject
        notifications.send(
            .replies, id: "reply-\(message.conversation.uuidString)",
            title: name.map { L("%@ replied on %@", agent.displayName, $0) }
                ?? L("%@ replied", agent.displayName),
            body: ReplyNotice.preview(of: message.text), click: .conversation(message.conversation, of: id))
    }
}
