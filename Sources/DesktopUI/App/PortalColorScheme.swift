import BuilderOSKit
import CGtk
import GtkKit

/// The desktop's dark-style preference from the XDG Settings portal
/// (`org.freedesktop.appearance` / `color-scheme`), with change notifications. Nothing here blocks:
/// the value is read with an asynchronous call (the answer usually lands before the first frame)
/// and reported through `onChange` like any later change. Absent portal (or bus): `current` stays nil
/// and nothing is ever reported; a portal is never started just to ask.
@MainActor
final class PortalColorScheme {
    static let name = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"

    private(set) var current: DesktopColorScheme?
    var onChange: (@MainActor (DesktopColorScheme) -> Void)?
    private var connection: OpaquePointer?
    private var subscription: guint = 0

    init() {
        // GApplication has the session bus open by the time the UI is built, so this returns the
        // shared connection without a round trip.
        var error: UnsafeMutablePointer<GError>?
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        if let error { g_error_free(error) }
        guard let connection else { return }
        subscription = DBusPeer.subscribe(connection, sender: Self.name, interface: Self.interface, signal: "SettingChanged") {
            [weak self] _, arguments in
            guard arguments[0]?.stringValue == "org.freedesktop.appearance", arguments[1]?.stringValue == "color-scheme",
                let value = arguments[2]?.uint32Value
            else { return }
            self?.report(DesktopColorScheme(portalValue: value))
        }
        Task { [weak self] in
            let reply = await DBusPeer.call(
                connection, destination: Self.name, path: Self.path, interface: Self.interface, method: "Read",
                .tuple([.string("org.freedesktop.appearance"), .string("color-scheme")]), timeoutMilliseconds: DBusPeer.briefTimeoutMilliseconds)
            // A change signal that came first is newer than this answer.
            guard let self, self.current == nil, case .success(let tuple) = reply, let value = tuple[0]?.uint32Value else { return }
            self.report(DesktopColorScheme(portalValue: value))
        }
    }

    isolated deinit {
        if let connection {
            if subscription != 0 { DBusPeer.unsubscribe(connection, subscription) }
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
    }

    private func report(_ scheme: DesktopColorScheme) {
        current = scheme
        onChange?(scheme)
    }
}
