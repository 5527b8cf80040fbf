import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Tells the user when a reply finished while BuilderOS was not the focused window (a desktop
/// notification with a preview; clicking it brings the window back). Off in Preferences.
@MainActor
final class ReplyNotifier {
    private let application: UnsafeMutablePointer<GtkApplication>
    private let settingsFile: AppSettingsFile
    private let isFocused: () -> Bool

    init(application: UnsafeMutablePointer<GtkApplication>, session: AppSession, settingsFile: AppSettingsFile,
         isFocused: @escaping () -> Bool) {
        (self.application, self.settingsFile, self.isFocused) = (application, settingsFile, isFocused)
        session.chat.changes.add(owner: self) { [weak self, weak session] event in
            guard let self, let session, case .messageChanged(let m) = event, m.role == .assistant, m.state == .complete else { return }
            let agent = session.chat.conversation(m.conversation)?.agent ?? .jarvis
            self.replyFinished(m, agent: agent)
        }
    }

    private func replyFinished(_ message: ChatMessage, agent: ChatAgent) {
        guard settingsFile.load().notifications, !isFocused() else { return }
        let notification = g_notification_new(String(format: L("%@ replied"), agent.displayName))!
        let preview = message.text.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { String($0.prefix(140)).replacingOccurrences(of: "#", with: "").trimmingCharacters(in: .whitespaces) } ?? ""
        g_notification_set_body(notification, preview)
        g_notification_set_default_action(notification, "app.activate")
        g_application_send_notification(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self),
                                        "reply-\(message.conversation.uuidString)", notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
    }
}
