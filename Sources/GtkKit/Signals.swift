import CGtk

/// A signal handler. Its closure box is retained by GLib and released in the destroy notify,
/// which GLib calls on disconnect or when the object is finalized, so the closure never outlives
/// its connection and never leaks.
@MainActor
public final class SignalConnection {
    private let instance: UnsafeMutableRawPointer
    private let handlerID: UInt
    private let watch: FinalizationWatch

    init(instance: UnsafeMutableRawPointer, handlerID: UInt) {
        self.instance = instance
        self.handlerID = handlerID
        self.watch = FinalizationWatch(instance)
    }

    /// Disconnects the handler (safe after the object was finalized, and safe twice).
    public func disconnect() {
        guard !watch.isFinalized, g_signal_handler_is_connected(instance, handlerID) != 0 else { return }
        g_signal_handler_disconnect(instance, handlerID)
    }
}

public enum Signals {
    /// For signals whose C callback is `(instance, user_data)`, e.g. "clicked", "destroy".
    @MainActor @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        _ handler: @escaping @MainActor () -> Void
    ) -> SignalConnection {
        connectWithoutArguments(instance, signal, handler, after: false)
    }

    /// As `connect(_:_:_:)`, run after the handlers connected without this flag, whenever those
    /// were connected: for a handler that must follow another the emitter connects and disconnects
    /// as it goes (GTK's layout of a window on its frame clock's "layout").
    @MainActor @discardableResult
    public static func connectAfter(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        _ handler: @escaping @MainActor () -> Void
    ) -> SignalConnection {
        connectWithoutArguments(instance, signal, handler, after: true)
    }

    @MainActor
    private static func connectWithoutArguments(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        _ handler: @escaping @MainActor () -> Void, after: Bool
    ) -> SignalConnection {
        typealias Body = @MainActor () -> Void
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)() }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), handler as Body, after: after)
    }

    /// For signals whose C callback is `(instance, argument, user_data)` with a pointer argument.
    @MainActor @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        withArgument handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> SignalConnection {
        typealias Body = @MainActor (UnsafeMutableRawPointer?) -> Void
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)(argument) }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), handler as Body)
    }

    /// For signals whose C callback is `(instance, gboolean, user_data)`, e.g. GNetworkMonitor's
    /// "network-changed": the boolean is read as the gboolean (an int) it is, not through a pointer.
    @MainActor @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        withBool handler: @escaping @MainActor (Bool) -> Void
    ) -> SignalConnection {
        typealias Body = @MainActor (Bool) -> Void
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, gboolean, UnsafeMutableRawPointer?) -> Void = { _, value, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)(value != 0) }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), handler as Body)
    }

    /// For signals whose C callback is `(instance, first, second, user_data)`, e.g. a CSS
    /// provider's "parsing-error" (section, error).
    @MainActor @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        withTwoArguments handler: @escaping @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    ) -> SignalConnection {
        typealias Body = @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
        let trampoline:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
                _, first, second, user in
                MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)(first, second) }
            }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), handler as Body)
    }

    /// Emits a signal that takes no arguments and returns nothing (g_signal_emit is variadic;
    /// g_signal_emitv is its importable form).
    @MainActor
    public static func emit(_ instance: UnsafeMutableRawPointer, _ signal: String) {
        let type = instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
        let id = g_signal_lookup(signal, type)
        guard id != 0 else { return }
        var value = GValue()
        g_value_init(&value, type)
        g_value_set_object(&value, instance)
        g_signal_emitv(&value, id, 0, nil)
        g_value_unset(&value)
    }
}
