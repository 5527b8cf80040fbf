import CGtk

/// Talking to other D-Bus services on a connection: asynchronous calls, watching a name's owner, and
/// subscribing to signals. Every callback arrives on the main thread.
@MainActor
public enum DBusPeer {
    /// For a call whose answer only refines what is already shown (a desktop setting read at
    /// start): an absent or stuck service must not hold it up for long.
    public static let briefTimeoutMilliseconds: Int32 = 1000

    /// Calls a method; the reply tuple, or the error.
    public static func call(
        _ connection: OpaquePointer, destination: String, path: String,
        interface: String, method: String, _ arguments: Variant = .tuple([]),
        timeoutMilliseconds: Int32 = 5000
    ) async -> Result<Variant, DBusCallError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<Variant, DBusCallError>, Never>) in
            let box = Unmanaged.passRetained(CallBox(continuation)).toOpaque()
            g_dbus_connection_call(
                connection, destination, path, interface, method, arguments.make(), nil,
                G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds, nil,
                { source, result, box in
                    let call = Unmanaged<CallBox>.fromOpaque(box!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                    if let reply {
                        defer { g_variant_unref(reply) }
                        call.continuation.resume(returning: .success(Variant(reply)))
                    } else {
                        call.continuation.resume(returning: .failure(DBusCallError(consuming: error)))
                    }
                }, box)
        }
    }

    private final class CallBox {
        let continuation: CheckedContinuation<Result<Variant, DBusCallError>, Never>
        init(_ continuation: CheckedContinuation<Result<Variant, DBusCallError>, Never>) { self.continuation = continuation }
    }

    /// Calls `appeared` with the owner whenever `name` gets one (at once if it has one now), `vanished` when it loses it.
    /// Returns the watch id for `unwatch`.
    public static func watchName(
        _ connection: OpaquePointer, _ name: String,
        appeared: @escaping @MainActor (String) -> Void, vanished: @escaping @MainActor () -> Void
    ) -> guint {
        let box = Unmanaged.passRetained(WatchBox(appeared: appeared, vanished: vanished)).toOpaque()
        return g_bus_watch_name_on_connection(
            connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, owner, box in
                let watch = Unmanaged<WatchBox>.fromOpaque(box!).takeUnretainedValue()
                let owner = String(cString: owner!)
                MainActor.assumeIsolated { watch.appeared(owner) }
            },
            { _, _, box in
                let watch = Unmanaged<WatchBox>.fromOpaque(box!).takeUnretainedValue()
                MainActor.assumeIsolated { watch.vanished() }
            }, box, { Unmanaged<WatchBox>.fromOpaque($0!).release() })
    }

    public static func unwatch(_ id: guint) { g_bus_unwatch_name(id) }

    /// Only touched on the main thread (GDBus dispatches there).
    private final class WatchBox: @unchecked Sendable {
        let appeared: @MainActor (String) -> Void
        let vanished: @MainActor () -> Void
        init(appeared: @escaping @MainActor (String) -> Void, vanished: @escaping @MainActor () -> Void) {
            (self.appeared, self.vanished) = (appeared, vanished)
        }
    }

    /// Subscribes to a signal from `sender` (a name; nil for any); the handler gets the signal name and its arguments.
    public static func subscribe(
        _ connection: OpaquePointer, sender: String?, interface: String,
        signal: String?, handler: @escaping @MainActor (String, Variant) -> Void
    ) -> guint {
        let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
        return g_dbus_connection_signal_subscribe(
            connection, sender, interface, signal, nil, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, signal, parameters, box in
                let subscription = Unmanaged<SignalBox>.fromOpaque(box!).takeUnretainedValue()
                let name = String(cString: signal!), arguments = Variant(parameters!)
                MainActor.assumeIsolated { subscription.handler(name, arguments) }
            }, box, { Unmanaged<SignalBox>.fromOpaque($0!).release() })
    }

    public static func unsubscribe(_ connection: OpaquePointer, _ id: guint) {
        g_dbus_connection_signal_unsubscribe(connection, id)
    }

    /// Only touched on the main thread (GDBus dispatches there).
    private final class SignalBox: @unchecked Sendable {
        let handler: @MainActor (String, Variant) -> Void
        init(_ handler: @escaping @MainActor (String, Variant) -> Void) { self.handler = handler }
    }
}
