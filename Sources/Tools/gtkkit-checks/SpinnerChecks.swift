import CGtk
import Foundation
import GtkKit

@MainActor
enum SpinnerChecks {
    /// The spinner is a progress bar to assistive technologies, draws nothing while stopped and an
    /// arc while turning, asks for frames only while it turns on screen, and loads no SVG renderer
    /// (GtkSpinner's Adwaita image did).
    static let drawnWithoutAnSVGRenderer = Check(name: "a spinner turns, drawn by its own code, without loading an SVG renderer") {
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let spinner = Spinner.make(label: "Working", size: 16)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), spinner)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin { gtk_widget_get_mapped(spinner) != 0 && gtk_widget_get_width(spinner) > 0 }
        let stopped = drawnPixels(spinner)
        Spinner.setSpinning(spinner, true)
        _ = Loop.spin(seconds: 0.3) { false }
        let turning = drawnPixels(spinner)
        let role = gtk_accessible_get_accessible_role(OpaquePointer(spinner))
        let maps = ProcessMaps.text()
        let svg = maps.isEmpty || maps.contains("librsvg")
        // Frames follow while it turns in view, and stop once it is hidden (still turning).
        let clock = gtk_widget_get_frame_clock(window)
        @MainActor func frames(in seconds: Double) -> Int {
            let before = clock.map { Int(gdk_frame_clock_get_frame_counter($0)) } ?? 0
            _ = Loop.spin(seconds: seconds) { false }
            return (clock.map { Int(gdk_frame_clock_get_frame_counter($0)) } ?? 0) - before
        }
        let shown = frames(in: 0.3)
        UI.setVisible(spinner, false)
        _ = frames(in: 0.1)
        let hidden = frames(in: 0.3)
        UI.setVisible(spinner, true)
        let again = frames(in: 0.3)
        return Outcome(
            passed: stopped == 0 && turning > 10 && Spinner.isSpinning(spinner) && role == GTK_ACCESSIBLE_ROLE_PROGRESS_BAR && !svg
                && shown > 5 && hidden <= 1 && again > 5,
            detail:
                "pixels drawn stopped \(stopped), turning \(turning); progress bar \(role == GTK_ACCESSIBLE_ROLE_PROGRESS_BAR); librsvg \(svg); frames in 0.3 s shown \(shown), hidden \(hidden), shown again \(again)"
        )
    }

    /// How many of the widget's pixels are not transparent, drawn by its own snapshot (no window background).
    private static func drawnPixels(_ widget: Widget) -> Int {
        let snapshot = gtk_snapshot_new()!
        let paintable = gtk_widget_paintable_new(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let (width, height) = (Double(gtk_widget_get_width(widget)), Double(gtk_widget_get_height(widget)))
        gdk_paintable_snapshot(paintable, snapshot, width, height)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return 0 }
        defer { gsk_render_node_unref(node) }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        gsk_render_node_draw(node, cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return 0 }
        var count = 0
        for y in 0..<Int(height) { for x in 0..<Int(width) where data[y * stride + x * 4 + 3] != 0 { count += 1 } }
        return count
    }
}
