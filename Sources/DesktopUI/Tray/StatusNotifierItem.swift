import BuilderOSKit
import CGtk
import GtkKit

/// The tray icon as a StatusNotifierItem at `/StatusNotifierItem`, exported under both the KDE and the freedesktop
/// interface names (hosts use either). Properties come from the current `TrayStatus`; `update` signals only what
/// changed (NewIcon, NewToolTip, NewStatus).
@MainActor
final class StatusNotifierItem {
    static let path = "/StatusNotifierItem"
    static let interfaces = ["org.kde.StatusNotifierItem", "org.freedesktop.StatusNotifierItem"]

    private var object: DBusObject?
    private(set) var status: TrayStatus
    private let pixmaps = TrayIconPixmaps()
    /// A token a host hands over before Activate (Wayland's xdg-activation), used by the next activation.
    private var activationToken: String?

    /// - Parameter onActivate: a click on the icon; gets the host's activation token if it provided one.
    init(connection: OpaquePointer, status: TrayStatus, onActivate: @escaping @MainActor (String?) -> Void) throws(DBusCallError) {
        self.status = status
        let xml = "<node>" + Self.interfaces.map(Self.interfaceXML).joined() + "</node>"
        object = try DBusObject(
            connection: connection, path: Self.path, introspectionXML: xml,
            methods: { [weak self] _, method, arguments in
                guard let self else { return .success(nil) }
                switch method {
                case "Activate", "SecondaryActivate":
                    let token = activationToken
                    activationToken = nil
                    onActivate(token)
                case "ProvideXdgActivationToken": activationToken = arguments[0]?.stringValue
                default: break  // ContextMenu and Scroll: the menu is exported over dbusmenu; scrolling means nothing here.
                }
                return .success(nil)
            }, properties: { [weak self] _, name in self?.property(name) })
    }

    func unregister() { object?.unregister(); object = nil }

    func update(_ new: TrayStatus) {
        let old = status
        status = new
        if new.iconName != old.iconName { emit("NewIcon"); emit("NewAttentionIcon") }
        if new.tooltipTitle != old.tooltipTitle || new.tooltipBody != old.tooltipBody { emit("NewToolTip") }
        if Self.itemStatus(new) != Self.itemStatus(old) { emit("NewStatus", .tuple([.string(Self.itemStatus(new))])) }
    }

    private func emit(_ signal: String, _ arguments: Variant = .tuple([])) {
        Self.interfaces.forEach { object?.emit(signal, interface: $0, arguments) }
    }

    /// A failed connection asks for attention; otherwise the item is simply active.
    private static func itemStatus(_ status: TrayStatus) -> String { status.indicator == .failed ? "NeedsAttention" : "Active" }

    private func property(_ name: String) -> Variant? {
        switch name {
        case "Category": return .string("ApplicationStatus")
        case "Id": return .string(DesktopApplication.id)
        case "Title": return .string(TrayStatus.appName)
        case "Status": return .string(Self.itemStatus(status))
        case "WindowId": return .int32(0)
        case "IconThemePath": return .string(AppIcon.iconFolder() ?? "")
        case "Menu": return .objectPath(DBusMenu.path)
        case "ItemIsMenu": return .bool(false)
        case "IconName", "AttentionIconName": return .string(status.iconName)
        case "IconPixmap", "AttentionIconPixmap": return pixmaps.pixmaps(for: status.iconName)
        case "OverlayIconName", "AttentionMovieName": return .string("")
        case "OverlayIconPixmap": return TrayIconPixmaps.none
        case "ToolTip": return .tuple([.string(status.iconName), TrayIconPixmaps.none, .string(status.tooltipTitle), .string(status.tooltipBody)])
        default: return nil
        }
    }

    private static func interfaceXML(_ name: String) -> String {
        let point = #"<arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/>"#
        let properties = [
            "Category": "s", "Id": "s", "Title": "s", "Status": "s", "WindowId": "i", "IconThemePath": "s", "Menu": "o",
            "ItemIsMenu": "b", "IconName": "s", "IconPixmap": "a(iiay)", "OverlayIconName": "s", "OverlayIconPixmap": "a(iiay)",
            "AttentionIconName": "s", "AttentionIconPixmap": "a(iiay)", "AttentionMovieName": "s", "ToolTip": "(sa(iiay)ss)",
        ]
        return """
            <interface name="\(name)">
              \(properties.sorted { $0.key < $1.key }.map { #"<property name="\#($0.key)" type="\#($0.value)" access="read"/>"# }.joined())
              <method name="ContextMenu">\(point)</method>
              <method name="Activate">\(point)</method>
              <method name="SecondaryActivate">\(point)</method>
              <method name="Scroll"><arg name="delta" type="i" direction="in"/><arg name="orientation" type="s" direction="in"/></method>
              <method name="ProvideXdgActivationToken"><arg name="token" type="s" direction="in"/></method>
              <signal name="NewTitle"/><signal name="NewIcon"/><signal name="NewAttentionIcon"/><signal name="NewOverlayIcon"/>
              <signal name="NewToolTip"/><signal name="NewStatus"><arg name="status" type="s"/></signal>
            </interface>
            """
    }
}
