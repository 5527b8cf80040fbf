import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The app's notifications about its session: a reply finished while BuilderOS was not the
/// focused window (with a preview), and the connection lost or restored — only once the new state
/// has held for 10 s, so a flapping connection does not flood the desktop. Clicking one brings the
/// window back. Off in Preferences.
@MainActor
final class SessionNotifier {
    private let notifications: DesktopNotifications
    private let isFocused: () -> Bool
    /// How long a connection change must hold before it is announced.
    static let settleSeconds = 10.0
    private var announcedDown = false
    private var pending: Task<Void, Never>?

    init(application: UnsafeMutablePointer<GtkApplication>, session: AppSession, settingsStore: SettingsStore,
         isFocused: @escaping () -> Bool) {
        notifications = DesktopNotifications(application: application, settingsStore: settingsStore)
        self.isFocused = isFocused
        session.chat.changes.add(owner: self) { [weak self, weak session] event in
            guard let self, let session, case .messageChanged(let m) = event, m.role == .assistant, m.state == .complete else { return }
            let agent = session.chat.conversation(m.conversation)?.agent ?? .jarvis
            self.replyFinished(m, agent: agent)
        }
        var last = session.connection.snapshot.indicator
        session.connection.changes.add(owner: self) { [weak self] snapshot in
            guard let self, snapshot.indicator != last else { return }
            last = snapshot.indicator
            self.connectionChanged(snapshot)
        }
    }

    private func connectionChanged(_ snapshot: ConnectionSnapshot) {
        pending?.cancel()
        // The user's own Disconnect is not news.
        guard snapshot.wantsConnection else { return }
        let up = snapshot.indicator == .connected
        guard up == announcedDown else { return }  // only a change from what was last announced
        let help = snapshot.help
        pending = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(Self.settleSeconds * 1e9))
            guard let self, !Task.isCancelled else { return }
            self.announcedDown = !up
            if up {
                self.notifications.send(.connection, id: "connection", title: L("Connected to BuilderOS again"),
                                        body: L("Replies and messages waiting to be sent go through again."))
            } else {
                self.notifications.send(.connection, id: "connection", title: L("Connection to BuilderOS lost"),
                                        body: help ?? L("BuilderOS keeps trying to connect."))
            }
        }
    }

    private func replyFinished(_ message: ChatMessage, agent: ChatAgent) {
        guard !isFocused() else { return }
        let preview = message.text.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { String($0.prefix(140)).replacingOccurrences(of: "#", with: "").trimmingCharacters(in: .whitespaces) } ?? ""
        notifications.send(.replies, id: "reply-\(message.conversation.uuidString)", title: String(format: L("%@ replied"), agent.displayName), body: preview)
    }
}
