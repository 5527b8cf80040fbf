import CGtk
import Foundation
import GtkKit

/// Key presses made by the X server (its XTest extension), as a keyboard makes them: GTK receives them
/// as real events, so they pass through everything a key does (key capture, input methods, bindings),
/// which `Driver.sendKey`, calling the widget's own key handlers, cannot show. X11 only: on another
/// display `press` returns nil and the scenario says what it left out.
@MainActor
enum RealKeys {
    private typealias SetInputFocus = @convention(c) (OpaquePointer?, UInt, Int32, UInt) -> Int32
    private typealias KeysymToKeycode = @convention(c) (OpaquePointer?, UInt) -> UInt8
    private typealias FakeKeyEvent = @convention(c) (OpaquePointer?, UInt32, Int32, UInt) -> Int32
    private typealias Flush = @convention(c) (OpaquePointer?) -> Int32
    private typealias XDisplayOf = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias XIDOf = @convention(c) (OpaquePointer?) -> UInt

    /// Presses and releases each key (X keysyms, which are GDK's keyvals) with `window` focused, then
    /// lets GTK handle them. Nil when the display is not X11; false when the X server could not make
    /// them (no XTest, a key not on its keyboard).
    static func press(_ keysyms: [UInt32], in window: Widget, _ d: Driver) async -> Bool? {
        guard let display = gtk_widget_get_display(window),
            String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(display))) == "GdkX11Display"
        else { return nil }
        guard let surface = gtk_native_get_surface(OpaquePointer(window)),
            let xtest = dlopen("libXtst.so.6", RTLD_NOW),
            let xDisplayOf: XDisplayOf = symbol("gdk_x11_display_get_xdisplay"),
            let xidOf: XIDOf = symbol("gdk_x11_surface_get_xid"),
            let setInputFocus: SetInputFocus = symbol("XSetInputFocus"),
            let keycodeOf: KeysymToKeycode = symbol("XKeysymToKeycode"),
            let flush: Flush = symbol("XFlush"),
            let fake: FakeKeyEvent = symbol("XTestFakeKeyEvent", in: xtest)
        else { return false }
        let x = xDisplayOf(display)
        // No window manager runs: the window is given the keyboard as one would give it (RevertToParent, now).
        _ = setInputFocus(x, xidOf(surface), 2, 0)
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
