import CGtk
import Foundation
import GtkKit

/// The notifications this app sent, from the FAKE notification daemon's log (`Tests/Fakes/fake-notifications.py`),
/// which scenarios running at once share: each line names its sender, this app's connection to the session bus.
/// `click` clicks one as a user would, through the fake, which then sends what a daemon sends for a click.
@MainActor
struct NotificationLog {
    let path: String
    let driver: Driver

    struct Entry {
        let id: UInt32
        let summary: String
    }

    private var bus: OpaquePointer? {
        g_application_get_dbus_connection(UnsafeMutableRawPointer(driver.app.application).assumingMemoryBound(to: GApplication.self))
    }

    var entries: [Entry] {
        guard let bus, let sender = g_dbus_connection_get_unique_name(bus).map({ String(cString: $0) }) else { return [] }
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .filter { $0["sender"] as? String == sender }
            .compactMap { entry in
                guard let id = (entry["id"] as? NSNumber)?.uint32Value, let summary = entry["summary"] as? String else { return nil }
                return Entry(id: id, summary: summary)
            }
    }

    var titles: [String] { entries.map(\.summary) }

    func click(_ entry: Entry) async {
        guard let bus else { return }
        _ = await DBusPeer.call(
            bus, destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "app.builderos.Tests.FakeNotifications", method: "Click", .tuple([.uint32(entry.id)]))
    }
}
