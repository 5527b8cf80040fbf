import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// The desktop's dark preference through the XDG Settings portal, with a STAND-IN portal (no portal
/// runs in the test session): this process owns `org.freedesktop.portal.Desktop` on the test bus and
/// answers `Read`. The running app follows a `SettingChanged` signal, and a new reader gets the value
/// from its asynchronous `Read` — nothing waits on the bus while the window starts.
@MainActor
enum PortalScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["followsTheDesktop": run]

    static let introspection = """
        <node><interface name="org.freedesktop.portal.Settings">
          <method name="Read"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
          <signal name="SettingChanged"><arg type="s"/><arg type="s"/><arg type="v"/></signal>
        </interface></node>
        """

    final class Scheme { var value: UInt32 = 1 }

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        guard await MainScenarios.connectedMainWindow(d) != nil, let appearance = d.app.appearance else { return }
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return d.expect(false, "the test session bus") }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let scheme = Scheme()
        guard
            let portal = try? DBusObject(
                connection: bus, path: "/org/freedesktop/portal/desktop", introspectionXML: introspection,
                methods: { _, method, arguments in
                    guard method == "Read", arguments[0]?.stringValue == "org.freedesktop.appearance", arguments[1]?.stringValue == "color-scheme"
                    else {
                        return .failure(DBusCallError(name: "org.freedesktop.portal.Error.NotFound", message: "no such setting"))
                    }
                    return .success(.tuple([.variant(.variant(.uint32(scheme.value)))]))
                }, properties: { _, _ in nil })
        else { return d.expect(false, "the stand-in portal is exported") }
        defer { portal.unregister() }
        var owned = false
        let watch = DBusPeer.watchName(bus, "org.freedesktop.portal.Desktop", appeared: { _ in owned = true }, vanished: {})
        defer { DBusPeer.unwatch(watch) }
        let ownership = g_bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop", G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
        defer { g_bus_unown_name(ownership) }
        d.expect(await d.wait { owned }, "the stand-in portal owns its name")

        d.expect(appearance.preference == .automatic && appearance.theme == .light, "a fresh app follows the desktop: light while nothing says dark")
        func changed(_ value: UInt32) {
            portal.emit(
                "SettingChanged", interface: "org.freedesktop.portal.Settings",
                .tuple([.string("org.freedesktop.appearance"), .string("color-scheme"), .variant(.uint32(value))]))
        }
        changed(1)
        d.expect(await d.wait { appearance.theme == .dark }, "the running app turns dark when the desktop asks for it")
        d.expect(appearance.followsPortal, "and says it follows the portal")

        // A reader made now learns the value from its Read call alone.
        scheme.value = 1
        let reader = AppearanceController(preference: .automatic)
        d.expect(await d.wait { reader.followsPortal && reader.theme == .dark }, "a new reader gets the desktop's preference from Read")
        changed(2)
        d.expect(await d.wait { appearance.theme == .light && reader.theme == .light }, "prefer-light turns both back")
    }
}
