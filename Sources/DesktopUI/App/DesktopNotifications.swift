import BuilderOSKit
import CGtk
import Foundation

/// Sends the app's desktop notifications (GNotification), if the user has not switched them off.
@MainActor
struct DesktopNotifications {
    let application: UnsafeMutablePointer<GtkApplication>
    let settingsStore: SettingsStore

    /// `id` replaces an earlier notification with the same id (one per conversation, one for the connection).
    func send(_ kind: NotificationKinds.Kind, id: String, title: String, body: String) {
        guard settingsStore.load().notifications.allows(kind) else { return }
        let notification = g_notification_new(title)!
        g_notification_set_body(notification, body)
        g_notification_set_default_action(notification, "app.activate")
        g_application_send_notification(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), id, notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
    }
}
