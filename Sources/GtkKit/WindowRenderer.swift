import CGtk

/// Which of GTK's renderers draws a widget's window: some pictures are cheap for one and costly for
/// another (docs/performance.md, rule 43).
@MainActor
public enum WindowRenderer {
    /// Whether the widget's window draws with GTK's cairo renderer (X11 without GL, or
    /// `GSK_RENDERER=cairo`); nil until the window is realized.
    public static func isCairo(_ widget: Widget) -> Bool? {
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native),
            let name = g_type_name_from_instance(UnsafeMutableRawPointer(renderer).assumingMemoryBound(to: GTypeInstance.self))
        else { return nil }
        return String(cString: name) == "GskCairoRenderer"
    }
}
