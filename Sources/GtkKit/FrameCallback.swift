import CGtk

/// A tick callback's closure, kept by GTK as a `SignalClosure` (released with the callback).
typealias FrameBody = @MainActor () -> Void

/// Work done once at the next frame of a widget's frame clock: many updates that arrive between
/// two frames (e.g. 2,000 chunks a second) become one redraw.
@MainActor
public final class FrameCoalescer {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let work: @MainActor () -> Void
    private var scheduled = false

    public init(widget: UnsafeMutablePointer<GtkWidget>, work: @escaping @MainActor () -> Void) {
        self.widget = widget
        self.work = work
    }

    /// Asks for `work` at the next frame (once, however often this is called before it).
    public func schedule() {
        guard !scheduled else { return }
        // An unmapped widget gets no frames: do the work now instead.
        guard gtk_widget_get_mapped(widget) != 0 else { work(); return }
        scheduled = true
        let body: FrameBody = { [weak self] in
            guard let self else { return }
            self.scheduled = false
            self.work()
        }
        gtk_widget_add_tick_callback(
            widget,
            { _, _, user in
                MainActor.assumeIsolated { SignalClosure.body(user, as: FrameBody.self)() }
                return 0  // G_SOURCE_REMOVE: once
            }, SignalClosure.retain(body), SignalClosure.release)
    }
}

/// Runs `body` at every frame of the widget while it is mapped, for as long as the widget lives
/// (GTK releases the callback with the widget).
@MainActor
public enum FrameTicker {
    public static func every(_ widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
        gtk_widget_add_tick_callback(
            widget,
            { _, _, user in
                MainActor.assumeIsolated { SignalClosure.body(user, as: FrameBody.self)() }
                return 1  // G_SOURCE_CONTINUE
            }, SignalClosure.retain(body as FrameBody), SignalClosure.release)
    }
}
