import CGtk
import Foundation
import GtkKit

/// Keys made by mutter on Wayland, for `RealKeys`: a RemoteDesktop session on mutter's own bus
/// (`org.gnome.Mutter.RemoteDesktop`, the interface GNOME's remote desktop uses) adds a virtual
/// keyboard, whose keys mutter sends to the focused window as a keyboard's. The session lasts as
/// long as its connection, so both are kept for the rest of the process.
@MainActor
enum CompositorKeyboard {
    /// mutter's bus address, as `meson-helpers/with-wayland` gives it (nil on another display).
    static var bus: String? { ProcessInfo.processInfo.environment["BUILDEROS_COMPOSITOR_BUS"] }
    private static let service = "org.gnome.Mutter.RemoteDesktop"
    private static let sessionInterface = "org.gnome.Mutter.RemoteDesktop.Session"
    private static var session: (connection: OpaquePointer, path: String)?

    /// Presses and releases each key (keysyms) once `window` has the focus; false when mutter would
    /// not make a keyboard or the window never got the focus.
    static func press(_ keysyms: [UInt32], in window: Widget, bus: String, _ d: Driver) async -> Bool {
        guard await focus(window, bus: bus, d), let (connection, path) = session else { return false }
        for keysym in keysyms {
            guard await tap(keysym, connection, path) else { return false }
            // One key at a time reaches the app, as typing does.
            await d.settle()
        }
        return true
    }

    /// Gives `window` the focus: mutter gives it to a window at the keyboard's first key, which
    /// reaches no window, so the first is a Shift, which types nothing.
    static func focus(_ window: Widget, bus: String, _ d: Driver) async -> Bool {
        guard let (connection, path) = await startedSession(bus: bus) else { return false }
        let active = { gtk_window_is_active(gtkCast(window, to: GtkWindow.self)) != 0 }
        if active() { return true }
        guard await tap(shift, connection, path) else { return false }
        return await d.wait(seconds: 10, until: active)
    }

    private static let shift: UInt32 = 0xffe1

    /// Presses and releases the key.
    private static func tap(_ keysym: UInt32, _ connection: OpaquePointer, _ path: String) async -> Bool {
        for pressed in [true, false] {
            let sent = await DBusPeer.call(
                connection, destination: service, path: path, interface: sessionInterface, method: "NotifyKeyboardKeysym",
                .tuple([.uint32(keysym), .bool(pressed)]))
            guard case .success = sent else { return false }
        }
        return true
    }

    private static func startedSession(bus: String) async -> (OpaquePointer, String)? {
        if let session { return session }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(bus, flags, nil, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        let created = await DBusPeer.call(
            connection, destination: service, path: "/org/gnome/Mutter/RemoteDesktop", interface: service, method: "CreateSession")
        guard case .success(let reply) = created, let path = reply[0]?.stringValue,
            case .success = await DBusPeer.call(connection, destination: service, path: path, interface: sessionInterface, method: "Start")
        else {
            g_object_unref(UnsafeMutableRawPointer(connection))
            return nil
        }
        session = (connection, path)
        return (connection, path)
    }
}
