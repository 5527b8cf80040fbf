import CGtk

extension Signals {
    /// For signals whose handler answers "handled?" with a gboolean and takes no arguments,
    /// e.g. a window's "close-request" (true keeps the window open).
    @MainActor @discardableResult
    public static func connectHandled(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        _ handler: @escaping @MainActor () -> Bool
    ) -> SignalConnection {
        typealias Body = @MainActor () -> Bool
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)() ? 1 : 0 }
        }
        return attach(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), handler as Body)
    }

    /// Calls `handler(keyval, modifiers)` for every key pressed inside `widget` (capture phase, so
    /// it sees Escape before an entry does); it returns true when it handled the key.
    @MainActor @discardableResult
    public static func onKeyPressed(
        _ widget: UnsafeMutablePointer<GtkWidget>,
        _ handler: @escaping @MainActor (_ keyval: UInt32, _ modifiers: UInt32) -> Bool
    ) -> SignalConnection {
        let controller = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        gtk_event_controller_set_name(controller, keyControllerName)
        gtk_widget_add_controller(widget, controller)  // the widget owns it now
        typealias Body = @MainActor (UInt32, UInt32) -> Bool
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean = {
            _, keyval, _, state, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)(keyval, state.rawValue) ? 1 : 0 }
        }
        return attach(UnsafeMutableRawPointer(controller), "key-pressed", unsafeBitCast(trampoline, to: GCallback.self), handler as Body)
    }
}

/// The name of the key controllers `Signals.onKeyPressed` adds (checks that press keys tell them from GTK's own).
public let keyControllerName = "bos-keys"

/// Key values the app reacts to (gdk/gdkkeysyms.h macros do not import).
public enum Keys {
    public static let escape: UInt32 = 0xff1b
}

extension Signals {
    /// Runs `handler` when Escape is pressed inside `widget` (a dialog's "close", a wizard's "leave?").
    @MainActor @discardableResult
    public static func onEscape(_ widget: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        onKeyPressed(widget) { keyval, _ in
            guard keyval == Keys.escape else { return false }
            handler()
            return true
        }
    }
}
