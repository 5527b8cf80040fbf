import CGtk
import GtkKit

/// The state icons as ARGB32 pixmaps (network byte order, as the StatusNotifierItem spec wants), for hosts that
/// cannot find the themed icon names. Rendered once per icon from the icon theme's SVG.
@MainActor
final class TrayIconPixmaps {
    static let none = Variant.array(elementType: "(iiay)", [])
    static let sizes: [Int32] = [16, 22, 32, 48]
    private var cache: [String: Variant] = [:]

    func pixmaps(for iconName: String) -> Variant {
        if let cached = cache[iconName] { return cached }
        let rendered = Variant.array(elementType: "(iiay)", Self.sizes.compactMap { Self.render(iconName, size: $0) })
        cache[iconName] = rendered
        return rendered
    }

    private static func render(_ iconName: String, size: Int32) -> Variant? {
        guard let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display),
            let icon = gtk_icon_theme_lookup_icon(theme, iconName, nil, size, 1, GTK_TEXT_DIR_NONE, GtkIconLookupFlags(rawValue: 0))
        else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(icon)) }
        guard let file = gtk_icon_paintable_get_file(icon) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let path = g_file_get_path(file) else { return nil }
        defer { g_free(path) }
        guard let pixbuf = gdk_pixbuf_new_from_file_at_size(path, size, size, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let (width, height) = (gdk_pixbuf_get_width(pixbuf), gdk_pixbuf_get_height(pixbuf))
        let (stride, channels) = (Int(gdk_pixbuf_get_rowstride(pixbuf)), Int(gdk_pixbuf_get_n_channels(pixbuf)))
        guard let pixels = gdk_pixbuf_read_pixels(pixbuf) else { return nil }
        var argb: [UInt8] = []
        argb.reserveCapacity(Int(width * height) * 4)
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                let p = pixels + y * stride + x * channels
                argb += [channels == 4 ? p[3] : 255, p[0], p[1], p[2]]
            }
        }
        return .tuple([.int32(width), .int32(height), .bytes(argb)])
    }
}
