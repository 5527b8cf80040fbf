import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// Streaming rules the eye cannot check: many chunks between two frames become one redraw, and
/// only the growing tail of a reply is rebuilt.
@MainActor
enum StreamingScenario {
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
        let window = gtk_window_new()!
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 700, 500)
        let list = MessageList()
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), list.widget)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
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
        await d.settle()
        let frames = list.framesApplied - before
        d.expect(frames >= 1 && frames <= 3, "2,000 chunks between frames are drawn in \(frames) frame(s)")
        d.expect(await d.wait { WidgetTree.visibleTexts(in: window).contains { $0.hasSuffix("w1999") } },
                 "the row shows the whole text after the frame")

        // Only the tail is rebuilt: feed the reply 8 characters at a time.
        let view = MarkdownView()
        var text = ""
        var firstBlock: Widget?
        var steps = 0
        let source = Self.reply
        var index = source.startIndex
        while index < source.endIndex {
            let end = source.index(index, offsetBy: 8, limitedBy: source.endIndex) ?? source.endIndex
            text += source[index..<end]
            index = end
            view.show(text)
            steps += 1
            if firstBlock == nil, view.blockWidgets.count >= 2 { firstBlock = view.blockWidgets[0] }
        }
        let blocks = view.blockWidgets.count
        d.expect(blocks == 5, "the reply has five blocks", "\(blocks)")
        d.expect(firstBlock != nil && view.blockWidgets.first == firstBlock, "the finished heading kept its widget while the rest streamed")
        d.expect(view.rebuiltBlocks <= steps + blocks, "\(view.rebuiltBlocks) block rebuilds for \(steps) updates (one per update, not all blocks)")
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
    }
}
