import BuilderOSKit
import CGtk
import GtkKit

/// The app's mark: the design's rounded tile on the blue→purple gradient with a white "B", shown
/// as the app icon's picture of it. A CSS gradient would cost the window a shader program of its
/// own under GL for as long as it lives (docs/performance.md, rule 43).
@MainActor
enum LogoTile {
    static func make(size: Int32) -> Widget {
        let image = gtk_image_new()!
        if let tile = tile(pixels: size * displayScale()) {
            gtk_image_set_from_paintable(OpaquePointer(image), tile)
            g_object_unref(UnsafeMutableRawPointer(tile))
        }
        gtk_image_set_pixel_size(OpaquePointer(image), size)
        UI.align(image, h: GTK_ALIGN_CENTER)
        Accessibility.setLabel(image, L("BuilderOS logo"))
        return image
    }

    /// The smallest rendition of the icon that gives `pixels` for the tile, cut to the tile: the
    /// icon grid leaves a sixteenth of the canvas around it (`data/icons/hicolor/scalable`).
    private static func tile(pixels: Int32) -> OpaquePointer? {
        guard let folder = AppIcon.iconFolder() else { return nil }
        let sizes: [Int32] = [16, 24, 32, 48, 64, 128, 256, 512]
        let canvas = sizes.first { $0 - $0 / 8 >= pixels } ?? sizes.last!
        let path = "\(folder)/hicolor/\(canvas)x\(canvas)/apps/\(AppIcon.name).png"
        guard let icon = gdk_texture_new_from_filename(path, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(icon)) }
        let width = Int(gdk_texture_get_width(icon)), inset = width / 16, side = width - 2 * inset
        var pixels = [UInt8](repeating: 0, count: width * width * 4)
        pixels.withUnsafeMutableBufferPointer { gdk_texture_download(icon, $0.baseAddress, gsize(width * 4)) }
        var cut = [UInt8]()
        cut.reserveCapacity(side * side * 4)
        for row in inset..<(inset + side) { cut += pixels[((row * width + inset) * 4)..<((row * width + inset + side) * 4)] }
        let bytes = cut.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        // The layout `gdk_texture_download` writes: GDK_MEMORY_DEFAULT, a macro, on a little-endian machine.
        return gdk_memory_texture_new(Int32(side), Int32(side), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, gsize(side * 4))
    }

    /// The largest scale of the display's monitors (2 on a HiDPI screen).
    private static func displayScale() -> Int32 {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display) else { return 1 }
        return (0..<g_list_model_get_n_items(monitors)).reduce(1) { scale, index in
            guard let monitor = g_list_model_get_item(monitors, index) else { return scale }
            defer { g_object_unref(monitor) }
            return max(scale, gdk_monitor_get_scale_factor(OpaquePointer(monitor)))
        }
    }
}
