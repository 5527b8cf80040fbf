import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The app's notifications about its session: a reply finished while BuilderOS was not the
/// focused window (with a preview), and the connection lost or restored when the core's
/// `ConnectionNotices` says it is news. Clicking one brings the window back. Off in Preferences.
@MainActor
final class SessionNotifier {
    private let notifications: DesktopNotifications
    private let isFocused: () -> Bool
    private let connectionNotices = ConnectionNotices()

    init(
        application: UnsafeMutablePointer<GtkApplication>, session: AppSession, settingsStore: SettingsStore,
        isFocused: @escaping () -> Bool
    ) {
        notifications = DesktopNotifications(application: application, settingsStore: settingsStore)
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

    private func send(_ notice: SessionNotice) {
        switch notice {
        case .connectionRestored:
            notifications.send(
                .connection, id: "connection", title: L("Connected to BuilderOS again"),
                body: L("Replies and messages waiting to be sent go through again."))
        case .connectionLost(let help):
            notifications.send(
                .connection, id: "connection", title: L("Connection to BuilderOS lost"),
                body: help ?? L("BuilderOS keeps trying to connect."))
        }
    }

    private func replyFinished(_ message: ChatMessage, agent: ChatAgent) {
        guard !isFocused() else { return }
        notifications.send(
            .replies, id: "reply-\(message.conversation.uuidString)", title: String(format: L("%@ replied"), agent.displayName),
            body: ReplyNotice.preview(of: message.text))
    }
}
