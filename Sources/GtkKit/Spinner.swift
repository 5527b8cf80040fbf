import CGtk

/// A spinner drawn with cairo: a faint ring with an arc of the widget's colour turning once a
/// second (still, when the desktop turns animations off). Nothing is drawn while it is stopped.
///
/// Why not `GtkSpinner`: its image is the icon theme's `process-working-symbolic`, which Adwaita
/// ships only as an SVG, so the first spinner shown loaded librsvg through gdk-pixbuf's SVG loader
/// in the middle of a frame — in the chat, the first frame of every session's first reply — and
/// ~7 MiB with it.
/// Assistive technologies meet it as GtkSpinner: a progress bar, named by its caller.
@MainActor
public enum Spinner {
    /// A spinner `size` pixels square, stopped.
    /// `label`: what a screen reader says it waits for.
    public static func make(label: String, size: Int32 = 16) -> Widget {
        let widget = Accessibility.make(gtk_drawing_area_get_type(), role: GTK_ACCESSIBLE_ROLE_PROGRESS_BAR)
        Accessibility.setLabel(widget, label)
        let object = UnsafeMutablePointer<GObject>(OpaquePointer(widget))
        let area = UnsafeMutablePointer<GtkDrawingArea>(OpaquePointer(widget))
        gtk_drawing_area_set_content_width(area, size)
        gtk_drawing_area_set_content_height(area, size)
        UI.addClasses(widget, ["spinner"])
        let state = Unmanaged.passRetained(SpinnerState()).toOpaque()
        gtk_drawing_area_set_draw_func(
            area,
            { area, cr, width, height, data in
                guard let area, let cr, let data else { return }
                let state = Unmanaged<SpinnerState>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { Spinner.draw(UnsafeMutablePointer(OpaquePointer(area)), cr, width, height, state) }
            }, state
        ) { Unmanaged<SpinnerState>.fromOpaque($0!).release() }
        g_object_set_qdata(object, stateKey, state)
        Signals.connect(UnsafeMutableRawPointer(widget), "map") {
            if let state = Spinner.state(of: widget) { Spinner.tick(widget, state) }
        }
        return widget
    }

    /// Starts or stops it (a stopped spinner keeps its size and draws nothing).
    public static func setSpinning(_ spinner: Widget, _ spinning: Bool) {
        guard let state = state(of: spinner), state.spinning != spinning else { return }
        state.spinning = spinning
        gtk_widget_queue_draw(spinner)
        tick(spinner, state)
    }

    /// Redraws it at every frame while it turns and is on screen. Only then: a tick callback keeps
    /// the frame clock running whether the widget is shown or not, and the chat's spinner is hidden
    /// while no reply is awaited (`gtkkit-checks --measure`: an idle window uses no CPU).
    private static func tick(_ spinner: Widget, _ state: SpinnerState) {
        guard state.spinning, !state.ticking, gtk_widget_get_mapped(spinner) != 0, animationsEnabled(spinner) else { return }
        state.ticking = true
        gtk_widget_add_tick_callback(
            spinner,
            { widget, _, data in
                let state = Unmanaged<SpinnerState>.fromOpaque(data!).takeUnretainedValue()
                guard state.spinning, let widget, gtk_widget_get_mapped(widget) != 0 else { state.ticking = false; return 0 }  // G_SOURCE_REMOVE
                gtk_widget_queue_draw(widget)
                return 1
            }, Unmanaged.passUnretained(state).toOpaque(), nil)
    }

    private static func state(of spinner: Widget) -> SpinnerState? {
        g_object_get_qdata(UnsafeMutablePointer(OpaquePointer(spinner)), stateKey).map {
            Unmanaged<SpinnerState>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// Whether it is turning (checks read it).
    public static func isSpinning(_ spinner: Widget) -> Bool { state(of: spinner)?.spinning ?? false }

    private static func draw(_ widget: Widget, _ cr: OpaquePointer, _ width: Int32, _ height: Int32, _ state: SpinnerState) {
        guard state.spinning else { return }
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color)
        let line = max(1.5, Double(min(width, height)) / 8)
        let radius = Double(min(width, height)) / 2 - line / 2
        let (x, y) = (Double(width) / 2, Double(height) / 2)
        cairo_set_line_width(cr, line)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_source_rgba(cr, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha) * 0.25)
        cairo_arc(cr, x, y, radius, 0, 2 * .pi)
        cairo_stroke(cr)
        // One turn a second, by the frame clock (still without one, or with animations off).
        let microseconds = gtk_widget_get_frame_clock(widget).map { gdk_frame_clock_get_frame_time($0) } ?? 0
        let start = state.ticking ? Double(microseconds % 1_000_000) / 1_000_000 * 2 * .pi : 0
        cairo_set_source_rgba(cr, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
        cairo_arc(cr, x, y, radius, start - .pi / 2, start)
        cairo_stroke(cr)
    }

    private static func animationsEnabled(_ widget: Widget) -> Bool {
        guard let settings = gtk_widget_get_settings(widget) else { return true }
        var value = GValue()
        g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutablePointer<GObject>(settings), "gtk-enable-animations", &value)
        return g_value_get_boolean(&value) != 0
    }
}

private final class SpinnerState {
    var spinning = false
    var ticking = false
}

/// Copied (`g_quark_from_string`): a Swift string is a temporary C string (see `LazyColumn`'s `recordKey`).
private let stateKey = g_quark_from_string("bos-spinner")
