import CGtk
import CStartPreload
import Foundation

/// Sets GL up for GTK's renderer on a thread of its own while the main thread builds the first
/// window — on Wayland, where GDK would do it on the main thread when that window is realized.
///
/// Why: EGL's set-up and the display's GL context are a third of a minimal window's
/// `gtk_window_present` on Wayland with Mesa's software GL. GDK keeps both on the display for every
/// renderer (`gdk_display_prepare_gl`), so they can be made ahead, off the main thread, as long as
/// nothing on the main thread sets GL up meanwhile: every GtkWindow's realize waits for the thread
/// first (`bos_gl_prepare.c`), and no other surface is realized before a window. GSK's shader
/// programs are still compiled when the window is realized: compiled ahead they need a GL context
/// of their own, and in paired starts that cost more peak memory (+0.6–1.2 MiB) than it saved time.
///
/// Not on X11: GDK sets GL up while it opens the display there, through GLX where there is no DRI,
/// over the Xlib connection the main thread uses (GDK does not make Xlib thread-safe).
public enum GLPrepare {
    /// Starts the set-up when windows will draw with GL on Wayland. Call on the main thread once
    /// the display is open, before any window is realized (the app: its `startup`).
    public static func start() {
        guard GLDriverPreload.rendersWithGL(environment: ProcessInfo.processInfo.environment) else { return }
        _ = bos_gl_prepare_start()
    }

    /// Waits for the set-up if it is still at work; returns whether this process set GL up beside the start.
    @discardableResult
    public static func finish() -> Bool { bos_gl_prepare_finish() != 0 }
}
