import BuilderOSKit
import CGtk
import Foundation

/// Sends the app's desktop notifications (GNotification), if the user has not switched them off.
@MainActor
struct DesktopNotifications {
    let application: UnsafeMutablePointer<GtkApplication>
    let settingsStore: SettingsStore

    /// `id` replaces an earlier notification with the same id (one per conversation, one per server's
    /// connection). A click runs `app.<action>` with `target` (`NotificationClick`).
    func send(_ kind: NotificationKinds.Kind, id: String, title: String, body: String, click: NotificationClick) {
        guard settingsStore.load().notifications.allows(kind) else { return }
        let notification = g_notification_new(title)!
        g_notification_set_body(notification, body)
        g_notification_set_default_action_and_target_value(notification, "app.\(click.action)", g_variant_new_string(click.target))
        g_application_send_notification(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), id, notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
    }
}

/// What a notification's click opens: the server it is about (switching to it when another is
/// shown), and one of its conversations. The app's `show-server` and `show-conversation` actions
/// take the target.
struct NotificationClick: Equatable {
    let action: String
    let target: String

    static func server(_ id: String) -> Self { Self(action: "show-server", target: id) }

    static func conversation(_ conversation: UUID, of server: String) -> Self {
        Self(action: "show-conversation", target: "\(server) \(conversation.uuidString)")
    }

    /// The server and conversation of a `show-conversation` target.
    static func conversationTarget(_ target: String) -> (server: String, conversation: UUID)? {
        let parts = target.split(separator: " ")
        guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else { return nil }
        return (String(parts[0]), id)
    }
}
