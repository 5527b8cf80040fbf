import CGtk
import Foundation

/// Work that waits until a window has painted its first frame: what the first frame does not
/// show (opening sockets, the first requests) then does not compete with it for the main thread.
@MainActor
public enum FirstPaint {
    /// Runs `body` once, right after the next frame `window` paints (its first, when just presented),
    /// from the main loop's next turn rather than inside the paint.
    ///
    /// Why not inside: GDK's "after-paint" comes while the frame is still in Xlib's output buffer
    /// (the main loop flushes it as it turns), and GTK runs tick callbacks newest first, so work
    /// registered later ran ahead of work registered earlier, inside the frame it was meant to follow.
    public static func after(_ window: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
        atPaint(window) {
            DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
        }
    }

    /// Runs `body` once inside the "after-paint" of the next frame `window` paints: for what must
    /// see that moment itself (the benchmark's timestamp of the first frame), and nothing slower.
    public static func atPaint(_ window: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
        // The frame clock exists once the window is realized: the first tick comes before the
        // first paint, and from there "after-paint" follows the paint.
        let tick: FrameBody = {
            guard let clock = gtk_widget_get_frame_clock(window) else { return body() }
            var connection: SignalConnection?
            connection = Signals.connect(UnsafeMutableRawPointer(clock), "after-paint") {
                connection?.disconnect()
                connection = nil
                body()
            }
        }
        gtk_widget_add_tick_callback(
            window,
            { _, _, user in
                MainActor.assumeIsolated { SignalClosure.body(user, as: FrameBody.self)() }
                return 0  // G_SOURCE_REMOVE: once
            }, SignalClosure.retain(tick), SignalClosure.release)
    }

    /// Runs `body` once, right after the first frame any window of `application` paints, whichever
    /// window that is (a window added but kept hidden never paints, while another may).
    public static func afterFirstWindow(of application: UnsafeMutablePointer<GtkApplication>, _ body: @escaping @MainActor () -> Void) {
        var waiting: SignalConnection?
        waiting = Signals.connect(
            UnsafeMutableRawPointer(application), "window-added",
            withArgument: { window in
                guard let window else { return }
                after(window.assumingMemoryBound(to: GtkWidget.self)) {
                    guard waiting != nil else { return }
                    waiting?.disconnect()
                    waiting = nil
                    body()
                }
            })
    }
}
