import CGtk

/// An object exported on a D-Bus connection: its interfaces come from introspection XML, method calls and
/// property reads go to Swift closures on the main thread, and signals are emitted with `emit`.
@MainActor
public final class DBusObject {
    /// Returns the reply (a tuple, or nil for none), or a D-Bus error name and message.
    public typealias MethodHandler = (_ interface: String, _ method: String, _ parameters: Variant) -> Result<Variant?, DBusCallError>
    public typealias PropertyGetter = (_ interface: String, _ property: String) -> Variant?

    public let connection: OpaquePointer
    public let path: String
    private var registrations: [guint] = []

    /// Exports every interface of `introspectionXML` at `path`.
    public init(
        connection: OpaquePointer, path: String, introspectionXML: String,
        methods: @escaping MethodHandler, properties: @escaping PropertyGetter
    ) throws(DBusCallError) {
        (self.connection, self.path) = (connection, path)
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(introspectionXML, &error) else { throw DBusCallError(consuming: error) }
        defer { g_dbus_node_info_unref(node) }
        var index = 0
        while let interface = node.pointee.interfaces[index] {
            index += 1
            let box = Unmanaged.passRetained(Handlers(methods: methods, properties: properties)).toOpaque()
            let id = withUnsafePointer(to: &Self.vtable) {
                g_dbus_connection_register_object(connection, path, interface, $0, box, { Unmanaged<Handlers>.fromOpaque($0!).release() }, &error)
            }
            guard id != 0 else { unregister(); throw DBusCallError(consuming: error) }
            registrations.append(id)
        }
    }

    /// Sends a signal from this object to every listener.
    public func emit(_ signal: String, interface: String, _ arguments: Variant = .tuple([])) {
        g_dbus_connection_emit_signal(connection, nil, path, interface, signal, arguments.make(), nil)
    }

    public func unregister() {
        registrations.forEach { g_dbus_connection_unregister_object(connection, $0) }
        registrations = []
    }

    /// Only touched on the main thread (GDBus dispatches there).
    private final class Handlers: @unchecked Sendable {
        let methods: MethodHandler
        let properties: PropertyGetter
        init(methods: @escaping MethodHandler, properties: @escaping PropertyGetter) { (self.methods, self.properties) = (methods, properties) }
    }

    // GDBus calls these on the main context the object was registered from: the main thread.
    private static var vtable = GDBusInterfaceVTable(
        method_call: { _, _, _, interface, method, parameters, invocation, box in
            let handlers = Unmanaged<Handlers>.fromOpaque(box!).takeUnretainedValue()
            let (interface, method, parameters) = (String(cString: interface!), String(cString: method!), Variant(parameters!))
            let result = MainActor.assumeIsolated { handlers.methods(interface, method, parameters) }
            switch result {
            case .success(let reply): g_dbus_method_invocation_return_value(invocation, reply?.make())
            case .failure(let error): g_dbus_method_invocation_return_dbus_error(invocation, error.name, error.message)
            }
        },
        get_property: { _, _, _, interface, property, error, box in
            let handlers = Unmanaged<Handlers>.fromOpaque(box!).takeUnretainedValue()
            let (interface, property) = (String(cString: interface!), String(cString: property!))
            let value = MainActor.assumeIsolated { handlers.properties(interface, property) }
            guard let value else {
                g_set_error_literal(error, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "No such property")
                return nil
            }
            return value.make()
        },
        set_property: nil,
        padding: (nil, nil, nil, nil, nil, nil, nil, nil)
    )
}

/// A D-Bus error: its name (`org.freedesktop.DBus.Error.InvalidArgs`) and message.
public struct DBusCallError: Error, Sendable, Equatable {
    public let name: String
    public let message: String

    public init(name: String, message: String) { (self.name, self.message) = (name, message) }

    public static func invalidArguments(_ message: String) -> DBusCallError {
        DBusCallError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// Takes a GError (and frees it).
    init(consuming error: UnsafeMutablePointer<GError>?) {
        name = "org.freedesktop.DBus.Error.Failed"
        message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        g_clear_error_shim(error)
    }
}

private func g_clear_error_shim(_ error: UnsafeMutablePointer<GError>?) { if let error { g_error_free(error) } }
