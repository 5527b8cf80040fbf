import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// Streaming rules the eye cannot check: many chunks between two frames become one redraw, and
/// only the growing tail of a reply is rebuilt.
@MainActor
enum StreamingScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["coalesced": { d, _ in await run(d) }]

    static let reply = """
        ## Streaming check

        A first paragraph that stays the same while the rest streams in.

        - one
        - two

        ```swift
        let tail = "grows"
        print(tail)
        ```

        The last paragraph keeps growing with every chunk that arrives from the server.
        """

    static func run(_ d: Driver) async {
        let (window, list) = Self.listWindow(width: 700, height: 500)
        let conversation = UUID()
        var reply = ChatMessage(conversation: conversation, role: .assistant, text: "", state: .streaming)
        list.show([ChatMessage(conversation: conversation, role: .user, text: "stream please", state: .sent), reply])
        await d.settle()

        // 2,000 chunks arrive before the next frame (as at 2,000 chunks a second).
        let before = list.framesApplied
        let chunks = (0..<2000).map { "w\($0) " }
        for chunk in chunks {
            reply.text += chunk
            list.update(reply)
        }
        // The next frame may come late on a busy machine (GL drawn on the CPU): wait for it, then for any after it.
        _ = await d.wait { list.framesApplied > before }
        await d.settle()
        let frames = list.framesApplied - before
        d.expect(frames >= 1 && frames <= 3, "2,000 chunks between frames are drawn in \(frames) frame(s)")
        d.expect(
            await d.wait { WidgetTree.visibleTexts(in: window).contains { $0.hasSuffix("w1999") } },
            "the row shows the whole text after the frame")

        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        await frozenBlocks(d)
        await everySplitShowsTheSameAsTheWhole(d)
        await listItemsGrowInPlace(d)
        await tableRowsGrowInPlace(d)
        await closedBlocksOfEveryKindStayUnmeasured(d)
        await ColumnVisitsCheck.run(d)
        await LongReplyResizeCheck.run(d)
        await LongReplyResizeCheck.listStaysAtTheEnd(d)
    }

    /// Closed blocks keep their widgets and are not measured again while the tail grows; the tail is.
    static func frozenBlocks(_ d: Driver) async {
        let view = MarkdownView()
        let window = Self.window(showing: view.widget)
        var text = ""
        var firstBlock: Widget?
        var steps = 0
        for piece in Self.pieces(of: Self.reply, size: 8) {
            text += piece
            view.show(text)
            steps += 1
            if firstBlock == nil, view.blockWidgets.count >= 2 { firstBlock = view.blockWidgets[0] }
        }
        await d.settle()
        let blocks = view.blockWidgets.count
        d.expect(blocks == 5, "the reply has five blocks", "\(blocks)")
        d.expect(firstBlock != nil && view.blockWidgets.first == firstBlock, "the finished heading kept its widget while the rest streamed")
        d.expect(view.rebuiltBlocks <= steps + blocks, "\(view.rebuiltBlocks) block rebuilds for \(steps) updates (one per update, not all blocks)")

        // More chunks, a frame after each: the four closed blocks are neither replaced nor measured again.
        let closed = Array(view.blockWidgets.prefix(4))
        let measuresBefore = (0..<5).map { view.measureCount(ofBlock: $0) }
        for i in 0..<20 {
            text += " more words \(i)"
            view.show(text)
            await d.nextFrame(window)
        }
        let measuresAfter = (0..<5).map { view.measureCount(ofBlock: $0) }
        d.expect(Array(view.blockWidgets.prefix(4)) == closed, "closed blocks keep their widgets")
        d.expect(
            measuresAfter.prefix(4) == measuresBefore.prefix(4), "closed blocks are not measured again",
            "before \(measuresBefore), after \(measuresAfter)")
        d.expect(measuresAfter[4] > measuresBefore[4], "the growing tail is measured (the count works)", "\(measuresBefore[4]) → \(measuresAfter[4])")
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }

    /// Whatever sizes the chunks come in, the view ends up showing what a view given the whole reply shows.
    static func everySplitShowsTheSameAsTheWhole(_ d: Driver) async {
        let long =
            Self.reply + "\n\n" + (0..<300).map { "Sentence number \($0) of a paragraph that keeps going." }.joined(separator: " ")
            + "\n\n```\n" + (0..<130).map { "line \($0)" }.joined(separator: "\n") + "\n```\n\n- a\n- b\n\n  more b\n- c"
            + "\n\n| Step | Owner | Takes |\n|---|---|---|\n"
            + (1...6).map { "| step \($0) | team \($0 % 3) | \($0 * 15) ms |" }.joined(separator: "\n")
            + "\n\n> A quote that streams in,\n> over two lines.\n>\n> - and a list\n> - inside it\n\nThe end."
        let whole = MarkdownView()
        whole.show(long)
        let expected = Self.labels(in: whole.widget)
        for size in [7, 64, 1000] {
            let view = MarkdownView()
            var text = ""
            for piece in Self.pieces(of: long, size: size) {
                text += piece
                view.show(text)
            }
            let shown = Self.labels(in: view.widget)
            d.expect(
                shown == expected, "chunks of \(size) characters show the same labels as the whole reply",
                "\(shown.count) labels vs \(expected.count); first difference: \(zip(shown, expected).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "at the end: \(shown.suffix(3))")"
            )
        }
        d.expect(expected.count > 10, "the long reply is shown in pieces", "\(expected.count) labels")
    }

    /// A list's growing item takes its new text in place: every label stays the same object. A list
    /// of paragraphs is one label whose marker leads each item on its side (right-to-left as well),
    /// and whose wrapped lines start under the item's text.
    static func listItemsGrowInPlace(_ d: Driver) async {
        var text = "Intro.\n\n- first item\n- second item grows"
        let (view, window, before) = await Self.showTagged(text, d)
        for i in 0..<20 {
            text += " word\(i)"
            view.show(text)
            await d.nextFrame(window)
        }
        let after = Self.labelWidgets(in: view.widget)
        let kept = Self.tagged(after)
        d.expect(
            after.count == before.count && kept.count == after.count, "the growing list item kept its labels",
            "\(before.count) labels before, \(after.count) after, \(kept.count) of them the same")
        d.expect(Self.labels(in: view.widget).last?.hasSuffix("word19") == true, "and shows the new words")
        // One label for the list: each item's text, and its wrapped lines, start at one column after
        // the marker; a right-to-left item's marker stands on its right.
        for rtl in [false, true] {
            let words = (0..<40).map { rtl ? "ארוך\($0)" : "long\($0)" }.joined(separator: " ")
            let list = MarkdownView()
            let listWindow = Self.window(showing: list.widget)
            list.show("- " + (rtl ? "פריט ראשון" : "first item") + "\n- " + words)
            await d.settle()
            let labels = Self.labelWidgets(in: list.widget)
            if labels.count == 1, let layout = gtk_label_get_layout(OpaquePointer(labels[0])) {
                let text = Array(String(cString: pango_layout_get_text(layout)).utf8)
                // The byte after the first tab from `from`: where an item's text starts.
                func textStart(after from: Int) -> Int { (text[from...].firstIndex(of: UInt8(ascii: "\t")) ?? from) + 1 }
                // A character's leading edge (its right one when right-to-left), in pixels.
                func edge(ofByte index: Int) -> Int32 {
                    var rect = PangoRectangle()
                    pango_layout_index_to_pos(layout, Int32(index), &rect)
                    return rect.x / PANGO_SCALE
                }
                let first = textStart(after: 0)
                let (markerEdge, textEdge) = (edge(ofByte: 0), edge(ofByte: first))
                d.expect(
                    rtl ? markerEdge > textEdge : markerEdge < textEdge, "the marker leads the item \(rtl ? "right-to-left" : "left-to-right")",
                    "marker at \(markerEdge), text at \(textEdge)")
                // The long second item wraps: its next line starts where its text does.
                let second = textStart(after: (text.firstIndex(of: UInt8(ascii: "\n")) ?? 0) + 1)
                var wrapped: Int32?
                let iter = pango_layout_get_iter(layout)
                repeat {
                    guard let line = pango_layout_iter_get_line_readonly(iter), Int(line.pointee.start_index) > second else { continue }
                    var logical = PangoRectangle()
                    pango_layout_iter_get_line_extents(iter, nil, &logical)
                    wrapped = (rtl ? logical.x + logical.width : logical.x) / PANGO_SCALE
                    break
                } while pango_layout_iter_next_line(iter) != 0
                pango_layout_iter_free(iter)
                let column = edge(ofByte: second)
                d.expect(
                    wrapped.map { abs($0 - column) <= 1 } ?? false, "a wrapped item's next line starts under its text, not under the marker",
                    "text at \(column), next line at \(wrapped.map(String.init) ?? "none")")
            } else {
                d.expect(false, "a list of paragraphs is one label", "\(labels.count) labels")
            }
            gtk_window_destroy(gtkCast(listWindow, to: GtkWindow.self))
        }
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }

    /// A streaming table keeps its grid and the cells already shown: new rows are added, a growing
    /// cell takes its text in place. A streaming quote keeps its blocks the same way.
    static func tableRowsGrowInPlace(_ d: Driver) async {
        var text = "Intro.\n\n| Step | Owner |\n|---|---|\n| one | a |\n| two | b"
        let (view, window, before) = await Self.showTagged(text, d)
        let table = view.blockWidgets.last
        for i in 0..<12 {
            text += i % 3 == 2 ? " |\n| row \(i) | c" : "\(i)"
            view.show(text)
            await d.nextFrame(window)
        }
        let after = Self.labelWidgets(in: view.widget)
        let kept = Self.tagged(after)
        d.expect(view.blockWidgets.count == 2 && view.blockWidgets.last == table, "the growing table kept its widget")
        d.expect(kept.count == before.count, "and every cell it showed", "\(before.count) labels before, \(kept.count) of them still there")
        d.expect(after.count == 1 + 2 * 7, "a label per cell: the intro and 7 rows of 2", "\(after.count)")
        d.expect(
            Self.labels(in: view.widget).suffix(2) == ["row 11", "c"], "the last row shows its text", "\(Self.labels(in: view.widget).suffix(2))")

        // A quote, the same: its growing paragraph keeps its label, a new block joins it.
        text += "\n\n> A quote that"
        view.show(text)
        await d.nextFrame(window)
        let quote = view.blockWidgets.last!
        let quoteLabel = Self.labelWidgets(in: quote).first
        for word in [" grows", " word", " by word.", "\n>\n> And a second paragraph."] {
            text += word
            view.show(text)
            await d.nextFrame(window)
        }
        d.expect(
            view.blockWidgets.last == quote && Self.labelWidgets(in: quote).first == quoteLabel,
            "a growing quote kept its widget and its text's label")
        d.expect(
            Self.labels(in: quote) == ["A quote that grows word by word.", "And a second paragraph."], "and shows both paragraphs",
            "\(Self.labels(in: quote))")
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }

    /// A reply of every kind of block (headings, paragraphs, lists, code, tables, quotes) streamed a
    /// frame per chunk: a block is measured again only while it is one of the two open ones.
    static func closedBlocksOfEveryKindStayUnmeasured(_ d: Driver) async {
        let section = { (n: Int) in
            "## \(n). Section\n\nA paragraph about part \(n) that runs for a sentence or two, long enough to wrap.\n\n"
                + "- **Rule 1** for `part\(n)`: keep it short.\n- **Rule 2**: and clear.\n\n"
                + (n % 2 == 0
                    ? "```swift\nlet value = try await store.fetch(id: \"item-\(n)\")\nprint(value)\n```\n\n"
                    : "| Step | Owner |\n|---|---|\n| step 1 | team \(n) |\n| step 2 | team \(n) |\n\n")
                + "> Note: part \(n) is done.\n\n1. First.\n2. Second.\n\n"
        }
        let reply = (0..<6).map(section).joined()
        let view = MarkdownView()
        let window = Self.window(showing: view.widget)
        var text = ""
        var counts: [Widget: Int] = [:]
        var remeasured: [String] = []
        for piece in Self.pieces(of: reply, size: 12) {
            text += piece
            view.show(text)
            await d.nextFrame(window)
            let blocks = view.blockWidgets
            for (index, block) in blocks.enumerated() {
                let count = view.measureCount(ofBlock: index)
                if index < blocks.count - 2, let before = counts[block], count != before { remeasured.append("block \(index) at \(text.count)") }
                counts[block] = count
            }
        }
        d.expect(view.blockWidgets.count >= 30, "the reply has many blocks", "\(view.blockWidgets.count)")
        d.expect(remeasured.isEmpty, "no closed block is measured again while the reply streams", "\(remeasured.count): \(remeasured.prefix(5))")
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }

    /// `text` shown by a new view in a window of its own, its labels marked to be found again
    /// (compared by address, a new label can be given a freed one's).
    static func showTagged(_ text: String, _ d: Driver) async -> (MarkdownView, Widget, [Widget]) {
        let view = MarkdownView()
        let window = Self.window(showing: view.widget)
        view.show(text)
        await d.settle()
        let labels = Self.labelWidgets(in: view.widget)
        labels.forEach { g_object_set_data(UnsafeMutablePointer(OpaquePointer($0)), "bos-check-tag", UnsafeMutableRawPointer(bitPattern: 1)) }
        return (view, window, labels)
    }

    /// Those of `widgets` that `showTagged` marked.
    static func tagged(_ widgets: [Widget]) -> [Widget] {
        widgets.filter { g_object_get_data(UnsafeMutablePointer(OpaquePointer($0)), "bos-check-tag") != nil }
    }

    static func labelWidgets(in widget: Widget) -> [Widget] {
        WidgetTree.all(widget).filter {
            g_type_check_instance_is_a(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0
        }
    }

    /// The text cut into chunks of `size` characters, as a server streams it.
    static func pieces(of text: String, size: Int) -> [String] {
        let characters = Array(text)
        return stride(from: 0, to: characters.count, by: size).map { String(characters[$0..<min($0 + size, characters.count)]) }
    }

    static func labels(in widget: Widget) -> [String] {
        labelWidgets(in: widget).map { String(cString: gtk_label_get_label(OpaquePointer($0))) }
    }

    /// A window showing a message list of its own.
    static func listWindow(width: Int32, height: Int32) -> (Widget, MessageList) {
        let window = gtk_window_new()!
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), width, height)
        let list = MessageList()
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), list.widget)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        return (window, list)
    }

    static func window(showing child: Widget) -> Widget {
        let window = gtk_window_new()!
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 700, 500)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scroller), child)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), scroller)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        return window
    }
}
