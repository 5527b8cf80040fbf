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

final class ClosureBox {
    let body: @MainActor (UnsafeMutableRawPointer?) -> Void
    init(_ body: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) { self.body = body }
}

final class PairBox {
    let body: @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    init(_ body: @escaping @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void) { self.body = body }
}

public enum Signals {
    /// For signals whose C callback is `(instance, user_data)`, e.g. "clicked", "destroy".
    @MainActor @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, user in
            MainActor.assumeIsolated { Unmanaged<ClosureBox>.fromOpaque(user!).takeUnretainedValue().body(nil) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), ClosureBox { _ in handler() })
    }

    /// For signals whose C callback is `(instance, argument, user_data)` with a pointer argument.
    @MainActor @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               withArgument handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> SignalConnection {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, user in
            MainActor.assumeIsolated { Unmanaged<ClosureBox>.fromOpaque(user!).takeUnretainedValue().body(argument) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), ClosureBox(handler))
    }

    /// For signals whose C callback is `(instance, first, second, user_data)`, e.g. a CSS
    /// provider's "parsing-error" (section, error).
    @MainActor @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               withTwoArguments handler: @escaping @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void) -> SignalConnection {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, first, second, user in
            MainActor.assumeIsolated { Unmanaged<PairBox>.fromOpaque(user!).takeUnretainedValue().body(first, second) }
        }
        let user = Unmanaged.passRetained(PairBox(handler)).toOpaque()
        let id = g_signal_connect_data(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), user, { user, _ in
            Unmanaged<PairBox>.fromOpaque(user!).release()
        }, GConnectFlags(rawValue: 0))
        return SignalConnection(instance: instance, handlerID: id)
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

    @MainActor
    private static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback,
                                _ box: ClosureBox) -> SignalConnection {
        // GLib holds this reference and gives it back in the destroy notify.
        let user = Unmanaged.passRetained(box).toOpaque()
        let id = g_signal_connect_data(instance, signal, callback, user, { user, _ in
            Unmanaged<ClosureBox>.fromOpaque(user!).release()
        }, GConnectFlags(rawValue: 0))
        return SignalConnection(instance: instance, handlerID: id)
    }
}
