import CGtk
import GtkKit

/// The kinds of render node a widget draws with now: what its CSS turned into (a gradient, a
/// shadow), which the checks cannot see in a screenshot's pixels alone.
@MainActor
enum RenderNodeKinds {
    static func of(_ widget: Widget) -> [GskRenderNodeType] {
        var kinds: [GskRenderNodeType] = []
        visit(widget) { kinds.append(gsk_render_node_get_node_type($0)) }
        return kinds
    }

    /// The borders a widget draws with a rounded outline (a CSS border or focus outline), which
    /// GTK's GL renderer draws with shader programs of their own (docs/performance.md, rule 42).
    static func roundedBorders(_ widget: Widget) -> Int {
        var count = 0
        visit(widget) { node in
            guard gsk_render_node_get_node_type(node) == GSK_BORDER_NODE, let outline = gsk_border_node_get_outline(node) else { return }
            let corners = outline.pointee.corner
            if [corners.0, corners.1, corners.2, corners.3].contains(where: { $0.width > 0 || $0.height > 0 }) { count += 1 }
        }
        return count
    }

    /// Draws the widget now, through its parent: a widget paintable shows the node of the last
    /// frame, which a redraw asked for since (a blinking cursor) has already dropped.
    private static func visit(_ widget: Widget, _ body: (OpaquePointer) -> Void) {
        guard gtk_widget_get_mapped(widget) != 0, let parent = gtk_widget_get_parent(widget) else { return }
        let snapshot = gtk_snapshot_new()!
        gtk_widget_snapshot_child(parent, widget, snapshot)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return }
        defer { gsk_render_node_unref(node) }
        walk(node, body)
    }

    private static func walk(_ node: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        body(node)
        switch gsk_render_node_get_node_type(node) {
        case GSK_CONTAINER_NODE:
            for index in 0..<gsk_container_node_get_n_children(node) { walk(gsk_container_node_get_child(node, index), body) }
        case GSK_TRANSFORM_NODE: walk(gsk_transform_node_get_child(node), body)
        case GSK_OPACITY_NODE: walk(gsk_opacity_node_get_child(node), body)
        case GSK_COLOR_MATRIX_NODE: walk(gsk_color_matrix_node_get_child(node), body)
        case GSK_CLIP_NODE: walk(gsk_clip_node_get_child(node), body)
        case GSK_ROUNDED_CLIP_NODE: walk(gsk_rounded_clip_node_get_child(node), body)
        case GSK_SHADOW_NODE: walk(gsk_shadow_node_get_child(node), body)
        case GSK_DEBUG_NODE: walk(gsk_debug_node_get_child(node), body)
        default: break
        }
    }
}
