import CGtk
import DesktopUI
import GtkKit

/// A streaming reply's frame costs what changed and what is on screen, not the blocks above: the
/// column visits (measures, allocates) the open tail and the blocks near the view, and leaves the
/// closed ones alone (`LazyColumn.setFrozen`) — and what it left alone is still right: blocks the
/// view comes to are drawn, blocks it leaves are parked, a style change lays everything out anew.
@MainActor
enum ColumnVisitsCheck {
    static func run(_ d: Driver) async {
        let section = { (n: Int) in
            "## Part \(n)\n\nA paragraph about part \(n), long enough to wrap once or twice in a window of this width.\n\n"
                + "- first point of \(n)\n- second point\n\n"
        }
        let reply = (0..<40).map(section).joined()
        let view = MarkdownView()
        let window = StreamingScenario.window(showing: view.widget)
        var text = ""
        var perFrame: [(blocks: Int, visits: Int)] = []
        for piece in StreamingScenario.pieces(of: reply, size: 40) {
            text += piece
            let before = LazyColumn.visits(view.widget)
            view.show(text)
            await d.nextFrame(window)
            perFrame.append((view.blockWidgets.count, LazyColumn.visits(view.widget) - before))
        }
        await d.settle()
        let blocks = view.blockWidgets.count
        d.expect(blocks == 120, "the reply has 120 blocks", "\(blocks)")
        // Frames while the reply had about a third of its blocks, and the last frames.
        let early = perFrame.filter { $0.blocks >= 35 && $0.blocks <= 45 }.map(\.visits)
        let late = perFrame.suffix(10).map(\.visits)
        let mean = { (v: [Int]) in v.isEmpty ? 0 : Double(v.reduce(0, +)) / Double(v.count) }
        d.expect(
            !early.isEmpty && mean(late) < Double(blocks) / 2,
            "a frame at the end of the reply visits fewer children than half its blocks", "\(mean(late)) visits a frame, \(blocks) blocks")
        d.expect(
            mean(late) <= mean(early) * 1.5 + 3, "a frame visits no more at 120 blocks than at 40",
            "\(mean(early)) visits a frame at ~40 blocks, \(mean(late)) at 120")

        // What the frames left alone is right: the view at the end draws the last blocks and parks
        // the first; back at the top, the other way round.
        let scroller = gtk_widget_get_ancestor(view.widget, gtk_scrolled_window_get_type())!
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))!
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        for _ in 0..<4 { await d.nextFrame(window) }
        let frames = view.blockWidgets
        let drawn = { (w: Widget) in gtk_widget_get_child_visible(w) != 0 }
        d.expect(drawn(frames[frames.count - 1]) && !drawn(frames[0]), "at the end the last block is drawn and the first parked")
        d.expect(LazyColumn.parkedChildren(view.widget).contains(frames[0]), "the first block is parked, laid out at the width")
        gtk_adjustment_set_value(adjustment, 0)
        for _ in 0..<4 { await d.nextFrame(window) }
        d.expect(drawn(frames[0]) && !drawn(frames[frames.count - 1]), "back at the top the first block is drawn and the last parked")
        let ordered = zip(frames, frames.dropFirst()).allSatisfy { a, b in
            var ra = graphene_rect_t(), rb = graphene_rect_t()
            return gtk_widget_compute_bounds(a, view.widget, &ra) != 0 && gtk_widget_compute_bounds(b, view.widget, &rb) != 0
                && ra.origin.y + ra.size.height <= rb.origin.y + 0.5
        }
        d.expect(ordered, "every block sits below the one before it")

        // A new stylesheet (larger text) changes every block's height: the column lays them all out
        // again rather than keeping its sums — here from a provider the column is not told about, so
        // what notices is its check of the blocks near the view.
        let heightBefore = gtk_widget_get_height(view.widget)
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, "label { font-size: 20pt; }", -1)
        let display = gdk_display_get_default()
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_USER))
        for _ in 0..<6 { await d.nextFrame(window) }
        await d.settle()
        let heightAfter = gtk_widget_get_height(view.widget)
        // Each block's own answer at the column's width, as GTK gives it, summed with the spacing.
        let width = gtk_widget_get_width(view.widget)
        let sum =
            view.blockWidgets.map { block -> Int32 in
                var height: Int32 = 0
                gtk_widget_measure(block, GTK_ORIENTATION_VERTICAL, width, nil, &height, nil, nil)
                return height
            }.reduce(0, +) + LazyColumn.spacing(view.widget) * Int32(view.blockWidgets.count - 1)
        d.expect(heightAfter > heightBefore * 5 / 4, "larger text makes the reply taller", "\(heightBefore) → \(heightAfter)")
        d.expect(heightAfter == sum, "the column is as tall as its blocks' new heights and spacing add up to", "\(heightAfter) vs \(sum)")
        gtk_style_context_remove_provider_for_display(display, OpaquePointer(provider))
        g_object_unref(provider)
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }
}
