import BuilderOSKit
import CGtk
import GtkKit

/// The tray menu over `com.canonical.dbusmenu` at `/MenuBar` (what libdbusmenu-glib would export, done with GDBus).
/// The layout is flat (root 0 with the `TrayMenu` items). `update` sends LayoutUpdated when the items themselves
/// changed (a server added or forgotten), else ItemsPropertiesUpdated for the items whose label, sensitivity or
/// check changed, and nothing when none did.
@MainActor
final class DBusMenu {
    static let path = "/MenuBar"
    static let interface = "com.canonical.dbusmenu"

    private var object: DBusObject?
    private(set) var menu: TrayMenu
    private var revision: UInt32 = 1

    init(connection: OpaquePointer, menu: TrayMenu, perform: @escaping @MainActor (TrayMenu.Action) -> Void) throws(DBusCallError) {
        self.menu = menu
        object = try DBusObject(
            connection: connection, path: Self.path, introspectionXML: Self.xml,
            methods: { [weak self] _, method, arguments in
                guard let self else { return .success(nil) }
                return handle(method, arguments, perform: perform)
            },
            properties: { _, name in
                switch name {
                case "Version": return .uint32(3)
                case "TextDirection": return .string(gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? "rtl" : "ltr")
                case "Status": return .string("normal")
                case "IconThemePath": return .array(elementType: "s", [])
                default: return nil
                }
            })
    }

    func unregister() { object?.unregister(); object = nil }

    func update(_ new: TrayMenu) {
        let changed = new.items.filter { $0 != menu.item(id: $0.id) }
        let relaid = new.items.map(\.id) != menu.items.map(\.id) || zip(new.items, menu.items).contains { $0.action != $1.action }
        menu = new
        if relaid {
            revision += 1
            object?.emit("LayoutUpdated", interface: Self.interface, .tuple([.uint32(revision), .int32(0)]))
            return
        }
        guard !changed.isEmpty else { return }
        object?.emit(
            "ItemsPropertiesUpdated", interface: Self.interface,
            .tuple([
                .array(elementType: "(ia{sv})", changed.map { .tuple([.int32($0.id), Self.properties(of: $0, only: [])]) }),
                .array(elementType: "(ias)", []),
            ]))
    }

    private func handle(_ method: String, _ arguments: Variant, perform: @escaping @MainActor (TrayMenu.Action) -> Void) -> Result<
        Variant?, DBusCallError
    > {
        switch method {
        case "GetLayout":
            let parent = arguments[0]?.int32Value ?? 0
            let names = arguments[2]?.items.compactMap(\.stringValue) ?? []
            guard parent == 0 || menu.item(id: parent) != nil else { return .failure(.invalidArguments("No menu item \(parent)")) }
            return .success(.tuple([.uint32(revision), layout(of: parent, names: names)]))
        case "GetGroupProperties":
            let ids = arguments[0]?.items.compactMap(\.int32Value) ?? []
            let names = arguments[1]?.items.compactMap(\.stringValue) ?? []
            let wanted = ids.isEmpty ? menu.items.map(\.id) : ids
            return .success(
                .tuple([
                    .array(
                        elementType: "(ia{sv})",
                        wanted.compactMap { id in
                            menu.item(id: id).map { .tuple([.int32(id), Self.properties(of: $0, only: names)]) }
                        })
                ]))
        case "GetProperty":
            guard let id = arguments[0]?.int32Value, let item = menu.item(id: id), let name = arguments[1]?.stringValue,
                let value = Self.propertyList(of: item).first(where: { $0.0 == name })?.1
            else { return .failure(.invalidArguments("No such menu item or property")) }
            return .success(.tuple([.variant(value)]))
        case "Event":
            guard let id = arguments[0]?.int32Value, let item = menu.item(id: id) else { return .failure(.invalidArguments("No such menu item")) }
            if arguments[1]?.stringValue == "clicked", item.enabled, let action = item.action { Self.later(perform, action) }
            return .success(nil)
        case "EventGroup":
            var unknown: [Variant] = []
            for event in arguments[0]?.items ?? [] {
                guard let id = event[0]?.int32Value, let item = menu.item(id: id) else { unknown.append(event[0] ?? .int32(-1)); continue }
                if event[1]?.stringValue == "clicked", item.enabled, let action = item.action { Self.later(perform, action) }
            }
            return .success(.tuple([.array(elementType: "i", unknown)]))
        case "AboutToShow": return .success(.tuple([.bool(false)]))
        case "AboutToShowGroup": return .success(.tuple([.array(elementType: "i", []), .array(elementType: "i", [])]))
        default: return .failure(DBusCallError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: method))
        }
    }

    /// Actions run after the Event call has been answered (Quit, for one, would otherwise leave the host waiting).
    private static func later(_ perform: @escaping @MainActor (TrayMenu.Action) -> Void, _ action: TrayMenu.Action) {
        Task { @MainActor in perform(action) }
    }

    /// `(ia{sv}av)`: the root holds every item; items have no children.
    private func layout(of id: Int32, names: [String]) -> Variant {
        if id != 0, let item = menu.item(id: id) {
            return .tuple([.int32(id), Self.properties(of: item, only: names), .array(elementType: "v", [])])
        }
        let children = menu.items.map { Variant.variant(layout(of: $0.id, names: names)) }
        return .tuple([.int32(0), .vardict([("children-display", .string("submenu"))]), .array(elementType: "v", children)])
    }

    private static func propertyList(of item: TrayMenu.Item) -> [(String, Variant)] {
        if item.isSeparator { return [("type", .string("separator")), ("visible", .bool(true))] }
        let plain: [(String, Variant)] = [("label", .string(item.label)), ("enabled", .bool(item.enabled)), ("visible", .bool(true))]
        guard let checked = item.checked else { return plain }
        return plain + [("toggle-type", .string("radio")), ("toggle-state", .int32(checked ? 1 : 0))]
    }

    private static func properties(of item: TrayMenu.Item, only names: [String]) -> Variant {
        .vardict(propertyList(of: item).filter { names.isEmpty || names.contains($0.0) })
    }

    private static let xml = """
        <node><interface name="com.canonical.dbusmenu">
          <property name="Version" type="u" access="read"/><property name="TextDirection" type="s" access="read"/>
          <property name="Status" type="s" access="read"/><property name="IconThemePath" type="as" access="read"/>
          <method name="GetLayout"><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="as" direction="in"/>
            <arg type="u" direction="out"/><arg type="(ia{sv}av)" direction="out"/></method>
          <method name="GetGroupProperties"><arg type="ai" direction="in"/><arg type="as" direction="in"/><arg type="a(ia{sv})" direction="out"/></method>
          <method name="GetProperty"><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
          <method name="Event"><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/><arg type="u" direction="in"/></method>
          <method name="EventGroup"><arg type="a(isvu)" direction="in"/><arg type="ai" direction="out"/></method>
          <method name="AboutToShow"><arg type="i" direction="in"/><arg type="b" direction="out"/></method>
          <method name="AboutToShowGroup"><arg type="ai" direction="in"/><arg type="ai" direction="out"/><arg type="ai" direction="out"/></method>
          <signal name="ItemsPropertiesUpdated"><arg type="a(ia{sv})"/><arg type="a(ias)"/></signal>
          <signal name="LayoutUpdated"><arg type="u"/><arg type="i"/></signal>
          <signal name="ItemActivationRequested"><arg type="i"/><arg type="u"/></signal>
        </interface></node>
        """
}
