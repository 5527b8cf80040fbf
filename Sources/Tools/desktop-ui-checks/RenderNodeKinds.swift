import CGtk
import GtkKit

/// The kinds of render node a widget draws with now: what its CSS turned into (a gradient, a
/// shadow), which the checks cannot see in a screenshot's pixels alone.
@MainActor
enum RenderNodeKinds {
    static func of(_ widget: Widget) -> [GskRenderNodeType] {
        let width = Double(gtk_widget_get_width(widget)), height = Double(gtk_widget_get_height(widget))
        guard width > 0, height > 0, let paintable = gtk_widget_paintable_new(widget) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(paintable, snapshot, width, height)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return [] }
        defer { gsk_render_node_unref(node) }
        var kinds: [GskRenderNodeType] = []
        collect(node, into: &kinds)
        return kinds
    }

    private static func collect(_ node: OpaquePointer, into kinds: inout [GskRenderNodeType]) {
        let kind = gsk_render_node_get_node_type(node)
        kinds.append(kind)
        switch kind {
        case GSK_CONTAINER_NODE:
            for index in 0..<gsk_container_node_get_n_children(node) { collect(gsk_container_node_get_child(node, index), into: &kinds) }
        case GSK_TRANSFORM_NODE: collect(gsk_transform_node_get_child(node), into: &kinds)
        case GSK_OPACITY_NODE: collect(gsk_opacity_node_get_child(node), into: &kinds)
        case GSK_COLOR_MATRIX_NODE: collect(gsk_color_matrix_node_get_child(node), into: &kinds)
        case GSK_CLIP_NODE: collect(gsk_clip_node_get_child(node), into: &kinds)
        case GSK_ROUNDED_CLIP_NODE: collect(gsk_rounded_clip_node_get_child(node), into: &kinds)
        case GSK_SHADOW_NODE: collect(gsk_shadow_node_get_child(node), into: &kinds)
        case GSK_DEBUG_NODE: collect(gsk_debug_node_get_child(node), into: &kinds)
        default: break
        }
    }
}
