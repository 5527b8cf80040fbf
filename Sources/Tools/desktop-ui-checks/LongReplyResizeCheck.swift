import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// A width change lays out what is near the view, not the whole reply (`LazyColumn`): the rest is
/// estimated, hidden, then measured a few blocks a frame, nearest first, while the text in view
/// stays where it is. Counts measures (GTK's cache misses), never time.
@MainActor
enum LongReplyResizeCheck {
    static func run(_ d: Driver) async {
        let paragraphs = (0..<160).map { i in
            "Paragraph \(i): " + (0..<12).map { "sentence \($0) of a paragraph that wraps over several lines" }.joined(separator: ", ") + "."
        }
        let view = MarkdownView()
        view.show(paragraphs.joined(separator: "\n\n"))
        let window = StreamingScenario.window(showing: view.widget)
        await d.settle()
        let scroller = gtk_widget_get_parent(gtk_widget_get_parent(view.widget))!  // viewport, then the scrolled window
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))!
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        await d.settle()
        let blocks = view.blockWidgets
        d.expect(blocks.count == 160, "the long reply has 160 blocks", "\(blocks.count)")
        d.expect(LazyColumn.hiddenChildren(view.widget).isEmpty, "before any resize every block is laid out")

        // Wider: the first frame at the new width lays out only the blocks near the view.
        let before = (0..<blocks.count).map { view.measureCount(ofBlock: $0) }
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 1000, 500)
        let resized = await d.wait(seconds: 5) { gtk_widget_get_width(view.widget) > 800 }
        d.expect(resized, "the window got wider")
        let measured = (0..<blocks.count).filter { view.measureCount(ofBlock: $0) != before[$0] }
        d.expect(
            !measured.isEmpty && measured.count < blocks.count / 2,
            "the first frames at the new width measure the blocks near the view, not all", "\(measured.count) of \(blocks.count)")
        d.expect(measured.contains(blocks.count - 1), "the block in view is laid out at once")
        d.expect(gtk_widget_get_child_visible(blocks[blocks.count - 1]) != 0, "the block in view is shown")

        // Then the rest, a few a frame, until none is estimated; the column is as tall as its blocks.
        let finished = await d.wait(seconds: 20) { !LazyColumn.isValidating(view.widget) }
        await d.settle()
        d.expect(await d.wait { finished && LazyColumn.hiddenChildren(view.widget).isEmpty }, "every block is measured in the end")
        let width = gtk_widget_get_width(view.widget)
        let exact =
            blocks.reduce(Int32(0)) { sum, block in
                var natural: Int32 = 0
                gtk_widget_measure(block, GTK_ORIENTATION_VERTICAL, width, nil, &natural, nil, nil)
                return sum + natural
            } + Int32(blocks.count - 1) * LazyColumn.spacing(view.widget)
        d.expect(
            gtk_widget_get_height(view.widget) == exact, "the column is as tall as its blocks", "\(gtk_widget_get_height(view.widget)) vs \(exact)")
        d.expect(blocks.filter { inView($0, scroller) }.allSatisfy { gtk_widget_get_child_visible($0) != 0 }, "every block in view is drawn")
        d.expect(LazyColumn.parkedChildren(view.widget).contains(blocks[0]), "the first block, screens above the view, is parked (not drawn)")
        // The view still shows the end it showed before the resize.
        d.expect(inView(blocks[blocks.count - 1], scroller), "the last block is still in view")
        // Scrolled to the top, the parked blocks there are drawn again, without being measured again.
        let measuresBeforeScroll = view.measureCount(ofBlock: 0)
        gtk_adjustment_set_value(adjustment, 0)
        await d.settle()
        d.expect(
            await d.wait { gtk_widget_get_child_visible(blocks[0]) != 0 && inView(blocks[0], scroller) },
            "scrolled to the top, the first block is drawn again")
        d.expect(view.measureCount(ofBlock: 0) == measuresBeforeScroll, "without being laid out again")
        d.expect(LazyColumn.parkedChildren(view.widget).contains(blocks[blocks.count - 1]), "and the last block, now far below, is parked")
        // The block with the keyboard focus (text selected in it) stays drawn when scrolled away.
        d.expect(gtk_widget_child_focus(blocks[0], GTK_DIR_TAB_FORWARD) != 0, "the first paragraph takes the focus (its text is selectable)")
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        await d.settle()
        let focused = gtk_root_get_focus(gtk_widget_get_root(blocks[0]))
        d.expect(
            gtk_widget_get_child_visible(blocks[0]) != 0 && focused.map { gtk_widget_is_ancestor($0, blocks[0]) != 0 } == true,
            "scrolled away, the focused paragraph is not parked and keeps the focus")
        d.expect(LazyColumn.parkedChildren(view.widget).contains(blocks[1]), "while its neighbour is")

        // From the middle, narrower: everything above is estimated, then measured (taller); the
        // paragraph being read stays in view.
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) / 2)
        await d.settle()
        guard let reading = blocks.first(where: { startsInView($0, scroller) }) else { return d.expect(false, "a block is in view") }
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 600, 500)
        _ = await d.wait(seconds: 5) { gtk_widget_get_width(view.widget) < 700 }
        d.expect(!LazyColumn.hiddenChildren(view.widget).isEmpty, "the blocks far from the view wait")
        _ = await d.wait(seconds: 20) { !LazyColumn.isValidating(view.widget) }
        await d.settle()
        d.expect(await d.wait { LazyColumn.hiddenChildren(view.widget).isEmpty }, "and are shown in the end")
        d.expect(inView(reading, scroller), "the paragraph read before the resize is still in view", describePosition(reading, scroller, blocks))

        // And wider again: everything above is estimated, then measured (shorter); the paragraph
        // being read stays in view.
        guard let readingNow = blocks.first(where: { startsInView($0, scroller) }) else { return d.expect(false, "a block is in view") }
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 1000, 500)
        _ = await d.wait(seconds: 5) { gtk_widget_get_width(view.widget) > 800 }
        _ = await d.wait(seconds: 20) { !LazyColumn.isValidating(view.widget) }
        await d.settle()
        d.expect(await d.wait { LazyColumn.hiddenChildren(view.widget).isEmpty }, "after widening too, every block is shown in the end")
        d.expect(
            inView(readingNow, scroller), "the paragraph read before widening is still in view", describePosition(readingNow, scroller, blocks))
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }

    /// In the message list, following the newest message: resizing back and forth with a long
    /// reply leaves the view at the reply's end once every block is shown.
    static func listStaysAtTheEnd(_ d: Driver) async {
        let (window, list) = StreamingScenario.listWindow(width: 900, height: 600)
        let conversation = UUID()
        let text = (0..<40).map { i in
            "## Part \(i)\n\n" + String(repeating: "A sentence that wraps at some widths and not at others. ", count: 1 + i % 7)
                + "\n\n- short item\n- " + String(repeating: "a longer item that wraps ", count: 1 + i % 5)
                + "\n\n```\nlet value\(i) = compute(\(i))\n```\n\nOne line.\n\n"
                + String(repeating: "More words follow here. ", count: 3 + (i * 5) % 11)
        }.joined(separator: "\n\n")
        list.show([
            ChatMessage(conversation: conversation, role: .user, text: "a long answer please", state: .sent),
            ChatMessage(conversation: conversation, role: .assistant, text: text, state: .complete),
        ])
        await d.settle()
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(list.widget))!
        let atEnd = { gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - gtk_adjustment_get_value(adjustment) < 1 }
        d.expect(await d.wait(seconds: 5) { atEnd() }, "the list opens at the reply's end")
        // As a person drags the window's edge: a new width every few frames, while the blocks
        // hidden at the last width are still being shown.
        for step in 0..<16 {
            gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), Int32(step % 2 == 0 ? 600 + step * 20 : 1100 - step * 20), 600)
            for _ in 0..<3 { await d.nextFrame(window) }
        }
        let columns = WidgetTree.all(list.widget).filter { LazyColumn.isColumn($0) }
        _ = await d.wait(seconds: 20) { columns.allSatisfy { !LazyColumn.isValidating($0) } }
        await d.settle()
        d.expect(
            await d.wait { !columns.isEmpty && columns.allSatisfy { LazyColumn.hiddenChildren($0).isEmpty } },
            "every block of the reply is shown again")
        d.expect(
            atEnd(), "after resizing, the view is still at the reply's end",
            "\(gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - gtk_adjustment_get_value(adjustment)) px above it")
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }

    /// Where `w` is against the view, and which blocks are in view (the detail of a failed check).
    static func describePosition(_ w: Widget, _ scroller: Widget, _ blocks: [Widget]) -> String {
        var x = 0.0, y = 0.0
        gtk_widget_translate_coordinates(w, scroller, 0, 0, &x, &y)
        let i = blocks.firstIndex(of: w) ?? -1
        let visible = blocks.enumerated().filter { inView($0.element, scroller) }.map(\.offset)
        return "block \(i) at y \(y) h \(gtk_widget_get_height(w)) cv \(gtk_widget_get_child_visible(w)); in view now: \(visible)"
    }

    /// Whether `widget` begins in the scrolled window: a paragraph being read, not the last lines of
    /// one above it.
    static func startsInView(_ widget: Widget, _ scroller: Widget) -> Bool {
        var x = 0.0, y = 0.0
        gtk_widget_translate_coordinates(widget, scroller, 0, 0, &x, &y)
        return y >= 0 && y < Double(gtk_widget_get_height(scroller))
    }

    /// Whether any of `widget` shows in the scrolled window.
    static func inView(_ widget: Widget, _ scroller: Widget) -> Bool {
        var x = 0.0, y = 0.0
        gtk_widget_translate_coordinates(widget, scroller, 0, 0, &x, &y)
        return y + Double(gtk_widget_get_height(widget)) > 0 && y < Double(gtk_widget_get_height(scroller))
    }
}
