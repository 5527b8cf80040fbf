import CGtk

/// Saves what a realized widget shows as a PNG, in-process (for tests and screenshots).
@MainActor
public enum WidgetSnapshot {
    public enum Failure: Error { case notRealized, renderFailed, saveFailed }

    public static func savePNG(of widget: UnsafeMutablePointer<GtkWidget>, to path: String) throws(Failure) {
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { throw .notRealized }
        let width = Double(gtk_widget_get_width(widget)), height = Double(gtk_widget_get_height(widget))
        guard width > 0, height > 0 else { throw .notRealized }
        let paintable = gtk_widget_paintable_new(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(paintable, snapshot, width, height)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { throw .renderFailed }
        defer { gsk_render_node_unref(node) }
        var bounds = graphene_rect_t()
        graphene_rect_init(&bounds, 0, 0, Float(width), Float(height))
        guard let texture = gsk_renderer_render_texture(renderer, node, &bounds) else { throw .renderFailed }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        guard gdk_texture_save_to_png(texture, path) != 0 else { throw .saveFailed }
    }
}
