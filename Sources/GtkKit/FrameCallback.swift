import CGtk

final class FrameBox {
    let body: @MainActor () -> Void
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }
}

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
        let box = Unmanaged.passRetained(FrameBox { [weak self] in
            guard let self else { return }
            self.scheduled = false
            self.work()
        }).toOpaque()
        gtk_widget_add_tick_callback(widget, { _, _, user in
            MainActor.assumeIsolated { Unmanaged<FrameBox>.fromOpaque(user!).takeUnretainedValue().body() }
            return 0  // G_SOURCE_REMOVE: once
        }, box, { user in Unmanaged<FrameBox>.fromOpaque(user!).release() })
    }
}

/// Runs `body` at every frame of the widget while it is mapped, for as long as the widget lives
/// (GTK releases the callback with the widget).
@MainActor
public enum FrameTicker {
    public static func every(_ widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(FrameBox(body)).toOpaque()
        gtk_widget_add_tick_callback(widget, { _, _, user in
            MainActor.assumeIsolated { Unmanaged<FrameBox>.fromOpaque(user!).takeUnretainedValue().body() }
            return 1  // G_SOURCE_CONTINUE
        }, box, { user in Unmanaged<FrameBox>.fromOpaque(user!).release() })
    }
}
