import BuilderOSKit
import CGtk
import GtkKit

/// The app's mark: the design's rounded tile on the blue→purple gradient (the `logo-tile` component)
/// with a white "B". Each renderer gets the gradient its cheapest way (docs/performance.md, rule 43):
/// GTK's cairo renderer from the component's CSS, which X11 draws in the server, and GL renderers
/// from cairo in a drawing area beneath the letter, because a CSS gradient costs a GL window a shader
/// program for as long as it lives. (Under cairo a drawn tile would be sent to the X server as an image.)
@MainActor
enum LogoTile {
    static func make(size: Int32) -> Widget {
        // Only paint: the tile says what it is (a drawing area's name would be its GTK type name).
        let area = Accessibility.make(gtk_drawing_area_get_type(), role: GTK_ACCESSIBLE_ROLE_PRESENTATION)
        let drawing = gtkCast(area, to: GtkDrawingArea.self)
        gtk_drawing_area_set_draw_func(
            drawing,
            { _, cairo, width, height, _ in
                guard let cairo else { return }
                MainActor.assumeIsolated { LogoTile.drawTile(cairo, Double(width), Double(height)) }
            }, nil, nil)
        let letter = UI.label("B", classes: [Style.hero], wrap: false, xalign: 0.5)
        UI.align(letter, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_CENTER)
        gtk_widget_set_visible(area, 0)  // shown under GL only: even empty, a drawing area is an image to cairo
        let tile = gtk_overlay_new()!
        gtk_overlay_set_child(OpaquePointer(tile), area)
        gtk_overlay_add_overlay(OpaquePointer(tile), letter)
        UI.addClasses(tile, [Style.logoTile])
        UI.size(tile, width: size, height: size)
        UI.align(tile, h: GTK_ALIGN_CENTER)
        Accessibility.setLabel(tile, L("BuilderOS logo"))
        Signals.connect(UnsafeMutableRawPointer(tile), "realize") {
            guard WindowRenderer.isCairo(tile) == false, look != nil else { return }
            // The tile's CSS leaves its background to the area.
            UI.addClasses(tile, [Style.logoDrawn])
            gtk_widget_set_visible(area, 1)
        }
        return tile
    }

    /// The component's colours and corner radius (the brand's, the same in both themes); nil
    /// without the tokens, and then the tile keeps its CSS.
    private static let look: (from: RGB, to: RGB, radius: Double)? = {
        guard let tokens = DesignTokens.shipped, let tile = tokens.components["logo-tile"], let end = tile.gradientTo,
            let from = tokens.colors[tile.background].flatMap({ Contrast.rgb($0.light) }),
            let to = tokens.colors[end].flatMap({ Contrast.rgb($0.light) })
        else { return nil }
        return (from, to, Double(tile.radius.flatMap { tokens.radii[$0] } ?? 0))
    }()
    private typealias RGB = (Double, Double, Double)

    private static func drawTile(_ cairo: OpaquePointer, _ width: Double, _ height: Double) {
        guard let look else { return }
        let r = min(look.radius, width / 2, height / 2)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, width - r, r, r, -.pi / 2, 0)
        cairo_arc(cairo, width - r, height - r, r, 0, .pi / 2)
        cairo_arc(cairo, r, height - r, r, .pi / 2, .pi)
        cairo_arc(cairo, r, r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cairo)
        // CSS's 135° on a square: from the top-left corner to the bottom-right one.
        let gradient = cairo_pattern_create_linear(0, 0, width, height)
        cairo_pattern_add_color_stop_rgb(gradient, 0, look.from.0, look.from.1, look.from.2)
        cairo_pattern_add_color_stop_rgb(gradient, 1, look.to.0, look.to.1, look.to.2)
        cairo_set_source(cairo, gradient)
        cairo_fill(cairo)
        cairo_pattern_destroy(gradient)
    }
}
