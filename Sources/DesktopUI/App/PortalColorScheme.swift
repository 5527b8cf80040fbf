import BuilderOSKit
import CGtk
import GtkKit

/// The desktop's dark-style preference from the XDG Settings portal
/// (`org.freedesktop.appearance` / `color-scheme`), with change notifications. Absent portal:
/// `current` is nil and nothing is ever reported.
@MainActor
final class PortalColorScheme {
    private(set) var current: DesktopColorScheme?
    private var proxy: UnsafeMutablePointer<GDBusProxy>?
    var onChange: (@MainActor (DesktopColorScheme) -> Void)?

    init() {
        var error: UnsafeMutablePointer<GError>?
        // Never start a portal just to ask, and never block on one that is not there.
        let flags = GDBusProxyFlags(rawValue: G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START.rawValue | G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES.rawValue)
        proxy = g_dbus_proxy_new_for_bus_sync(G_BUS_TYPE_SESSION, flags, nil, "org.freedesktop.portal.Desktop",
                                              "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings", nil, &error)
        if let error { g_error_free(error) }
        guard let proxy, g_dbus_proxy_get_name_owner(proxy).map({ p in g_free(p); return true }) ?? false else {
            if let proxy { g_object_unref(UnsafeMutableRawPointer(proxy)) }
            self.proxy = nil
            return
        }
        current = read()
        Signals.connect(UnsafeMutableRawPointer(proxy), "g-signal", withThreeArguments: { [weak self] _, signal, parameters in
            guard let self, let signal, String(cString: signal.assumingMemoryBound(to: CChar.self)) == "SettingChanged",
                  let parameters else { return }
            let tuple = OpaquePointer(parameters)
            guard g_variant_n_children(tuple) == 3 else { return }
            let namespace = Self.string(g_variant_get_child_value(tuple, 0))
            let key = Self.string(g_variant_get_child_value(tuple, 1))
            guard namespace == "org.freedesktop.appearance", key == "color-scheme",
                  let value = Self.uint(g_variant_get_child_value(tuple, 2)) else { return }
            let scheme = DesktopColorScheme(portalValue: value)
            self.current = scheme
            self.onChange?(scheme)
        })
    }

    private func read() -> DesktopColorScheme? {
        guard let proxy else { return nil }
        var children: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.appearance"), g_variant_new_string("color-scheme")]
        let parameters = g_variant_new_tuple(&children, 2)
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_proxy_call_sync(proxy, "Read", parameters, G_DBUS_CALL_FLAGS_NONE, 1000, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_variant_unref(reply) }
        return Self.uint(g_variant_get_child_value(reply, 0)).map(DesktopColorScheme.init(portalValue:))
    }

    /// Unwraps nested variants (`Read` answers `v` holding `v` holding `u`) and frees the value.
    private static func uint(_ value: OpaquePointer?) -> UInt32? {
        guard var value else { return nil }
        while String(cString: g_variant_get_type_string(value)) == "v" {
            let inner = g_variant_get_variant(value)!
            g_variant_unref(value)
            value = inner
        }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_type_string(value)) == "u" ? g_variant_get_uint32(value) : nil
    }

    private static func string(_ value: OpaquePointer?) -> String? {
        guard let value else { return nil }
        defer { g_variant_unref(value) }
        return g_variant_get_string(value, nil).map { String(cString: $0) }
    }
}
