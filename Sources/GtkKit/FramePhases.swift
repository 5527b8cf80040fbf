import CGtk

/// Work at two points of every frame of a widget's window, while the widget is realized: after
/// GTK has laid the window out, and after the frame is painted.
///
/// After a layout, a handler may change what the layout showed (make a row's content) and queue a
/// resize: GDK then lays the same frame out again before painting it (it repeats the layout phase
/// up to four times while a layout is asked for), so the change is in that frame's picture.
@MainActor
public enum FramePhases {
    public static func observe(
        _ widget: Widget, afterLayout: @escaping @MainActor () -> Void,
        afterPaint: @escaping @MainActor () -> Void
    ) {
        let observer = Observer(afterLayout: afterLayout, afterPaint: afterPaint)
        let instance = UnsafeMutableRawPointer(widget)
        Signals.connect(instance, "realize") { observer.attach(to: widget) }
        Signals.connect(instance, "unrealize") { observer.detach() }
        if gtk_widget_get_realized(widget) != 0 { observer.attach(to: widget) }
    }

    /// The handlers on the current frame clock (a widget moved to another window gets its clock).
    @MainActor
    private final class Observer {
        let afterLayout: @MainActor () -> Void
        let afterPaint: @MainActor () -> Void
        var connections: [SignalConnection] = []

        init(afterLayout: @escaping @MainActor () -> Void, afterPaint: @escaping @MainActor () -> Void) {
            (self.afterLayout, self.afterPaint) = (afterLayout, afterPaint)
        }

        func attach(to widget: Widget) {
            detach()
            guard let clock = gtk_widget_get_frame_clock(widget) else { return }
            let instance = UnsafeMutableRawPointer(clock)
            // GTK lays a window out in a "layout" handler it connects while a layout is pending and
            // disconnects once none is: connected "after", this one follows it in every emission.
            connections = [
                Signals.connectAfter(instance, "layout") { [weak self] in self?.afterLayout() },
                Signals.connect(instance, "after-paint") { [weak self] in self?.afterPaint() },
            ]
        }

        func detach() {
            connections.forEach { $0.disconnect() }
            connections = []
        }
    }
}
