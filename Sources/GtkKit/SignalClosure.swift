import CGtk

/// What GLib holds as a handler's (or a tick callback's) user data: the Swift closure, retained when it is
/// handed over and released in GLib's destroy notify, so it lives exactly as long as the connection.
/// One class for every signature: only the closure's type differs, and the destroy notify releases
/// through this base class without knowing it.
class SignalClosure {
    /// The destroy notify for every closure handed to GLib.
    static let release: GDestroyNotify = { user in Unmanaged<SignalClosure>.fromOpaque(user!).release() }

    /// Retains `body` for GLib; the pointer goes to GLib as user data.
    static func retain<Body>(_ body: Body) -> UnsafeMutableRawPointer {
        Unmanaged<SignalClosure>.passRetained(TypedSignalClosure(body)).toOpaque()
    }

    /// The closure behind a user-data pointer, as the trampoline of its signature knows it.
    static func body<Body>(_ user: UnsafeMutableRawPointer?, as type: Body.Type) -> Body {
        unsafeDowncast(Unmanaged<SignalClosure>.fromOpaque(user!).takeUnretainedValue(), to: TypedSignalClosure<Body>.self).body
    }
}

final class TypedSignalClosure<Body>: SignalClosure {
    let body: Body
    init(_ body: Body) { self.body = body }
}

extension Signals {
    /// Connects `trampoline` (a `@convention(c)` function of the signal's exact C signature) with `body` as its
    /// user data. Every public `connect…` goes through here.
    @MainActor
    static func attach<Body>(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ trampoline: GCallback, _ body: Body,
        after: Bool = false
    ) -> SignalConnection {
        let id = g_signal_connect_data(
            instance, signal, trampoline, SignalClosure.retain(body), { user, _ in SignalClosure.release(user) },
            after ? G_CONNECT_AFTER : GConnectFlags(rawValue: 0))
        return SignalConnection(instance: instance, handlerID: id)
    }
}
