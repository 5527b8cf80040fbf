import CGtk
import Foundation
import GtkKit

/// Key presses made by the display server, as a keyboard makes them, and the keyboard focus given as a
/// click gives it. GTK receives the keys as real events, so they pass through everything a key does
/// (key capture, input methods, bindings), which `Driver.sendKey`, calling the widget's own key
/// handlers, cannot show. On X11 the X server does both (XTest, XSetInputFocus); on Wayland mutter
/// does, through a RemoteDesktop session on its own bus (`meson-helpers/with-wayland` names it),
/// whose virtual keyboard is the only one headless mutter has. Elsewhere both return nil and the
/// scenario says what it left out.
@MainActor
enum RealKeys {
    private typealias SetInputFocus = @convention(c) (OpaquePointer?, UInt, Int32, UInt) -> Int32
    private typealias KeysymToKeycode = @convention(c) (OpaquePointer?, UInt) -> UInt8
    private typealias FakeKeyEvent = @convention(c) (OpaquePointer?, UInt32, Int32, UInt) -> Int32
    private typealias Flush = @convention(c) (OpaquePointer?) -> Int32
    private typealias XDisplayOf = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias XIDOf = @convention(c) (OpaquePointer?) -> UInt

    /// Gives `window` the keyboard focus as a user's click would, so that the compositor lets it claim
    /// the clipboard. Nil where nothing can (neither X11 nor mutter's bus); false when it did not come.
    static func focus(_ window: Widget, _ d: Driver) async -> Bool? {
        guard d.onX11 else {
            guard let bus = CompositorKeyboard.bus else { return nil }
            return await CompositorKeyboard.focus(window, bus: bus, d)
        }
        guard let display = gtk_widget_get_display(window), let surface = gtk_native_get_surface(OpaquePointer(window)),
            let xDisplayOf: XDisplayOf = symbol("gdk_x11_display_get_xdisplay"),
            let xidOf: XIDOf = symbol("gdk_x11_surface_get_xid"),
            let setInputFocus: SetInputFocus = symbol("XSetInputFocus"),
            let flush: Flush = symbol("XFlush")
        else { return false }
        let x = xDisplayOf(display)
        // No window manager runs: the window is given the keyboard as one would give it (RevertToParent, now).
        _ = setInputFocus(x, xidOf(surface), 2, 0)
        _ = flush(x)
        return await d.wait(seconds: 10) { gtk_window_is_active(gtkCast(window, to: GtkWindow.self)) != 0 }
    }

    /// Presses and releases each key (X keysyms, which are GDK's keyvals) with `window` focused, then
    /// lets GTK handle them. Nil where nothing can make them (neither X11 nor mutter's bus); false when
    /// the display server could not (no XTest, a key not on its keyboard, no RemoteDesktop session).
    static func press(_ keysyms: [UInt32], in window: Widget, _ d: Driver) async -> Bool? {
        guard d.onX11 else {
            guard let bus = CompositorKeyboard.bus else { return nil }
            return await CompositorKeyboard.press(keysyms, in: window, bus: bus, d)
        }
        guard await focus(window, d) == true, let display = gtk_widget_get_display(window),
            let xtest = dlopen("libXtst.so.6", RTLD_NOW),
            let xDisplayOf: XDisplayOf = symbol("gdk_x11_display_get_xdisplay"),
            let keycodeOf: KeysymToKeycode = symbol("XKeysymToKeycode"),
            let flush: Flush = symbol("XFlush"),
            let fake: FakeKeyEvent = symbol("XTestFakeKeyEvent", in: xtest)
        else { return false }
        let x = xDisplayOf(display)
        for keysym in keysyms {
            let keycode = UInt32(keycodeOf(x, UInt(keysym)))
            guard keycode != 0 else { return false }
            _ = fake(x, keycode, 1, 0)
            _ = fake(x, keycode, 0, 0)
            _ = flush(x)
            // One key at a time reaches the app, as typing does.
            await d.settle()
        }
        return true
    }

    private static func symbol<T>(_ name: String, in library: UnsafeMutableRawPointer? = nil) -> T? {
        // The X11 symbols come with GTK's X11 backend, already loaded: the default scope finds them.
        guard let address = dlsym(library ?? UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
