import BuilderOSKit
import CGtk
import GtkKit

/// A reply's Markdown as widgets, one per top-level block. While a reply streams, closed blocks
/// keep their widgets untouched (`StreamingMarkdown` parses only the open tail) and only the last
/// block's view takes the new text. Each block sits in a `SingleChildLayout` box, which counts
/// how often GTK measured it: checks prove that closed blocks are not measured again. The blocks
/// stand in a `LazyColumn`, so that after a width change only those near the view are laid out.
@MainActor
public final class MarkdownView {
    public let widget: Widget
    private var markdown = StreamingMarkdown()
    private var views: [BlockView] = []
    private var frames: [Widget] = []
    /// How many block views were made since creation (a streaming check reads it).
    public private(set) var rebuiltBlocks = 0

    public init() {
        widget = LazyColumn.box(spacing: Style.gapSmall)
    }

    public func show(_ text: String) {
        let change = markdown.update(text)
        // Blocks from the first changed one on are about to be updated or replaced; the closed ones
        // before it stay as they are, and the column need not look at them again (`LazyColumn.setFrozen`).
        LazyColumn.setFrozen(widget, count: change.reset ? 0 : change.firstChanged)
        defer { LazyColumn.setFrozen(widget, count: markdown.closed.count) }
        if change.reset { while !views.isEmpty { remove(at: views.count - 1) } }
        let blocks = markdown.blocks
        for index in change.firstChanged..<blocks.count {
            if index < views.count {
                if views[index].update(blocks[index]) { continue }
                remove(at: index)
            }
            insert(BlockViews.make(blocks[index]), for: blocks[index], at: index)
        }
        while views.count > blocks.count { remove(at: views.count - 1) }
    }

    private func insert(_ view: BlockView, for block: MarkdownBlock, at index: Int) {
        let frame = SingleChildLayout.box()
        UI.append(frame, view.widget)
        // Text is at most `lineChars` wide, as lines are easier to read so; a table (which scrolls
        // sideways) or a code block may widen the reply up to the row's width.
        switch block {
        case .paragraph, .heading, .list, .quote: LazyColumn.limitNaturalWidth(of: frame, chars: MarkdownWidgets.lineChars)
        case .code, .table, .rule: break
        }
        gtk_box_insert_child_after(gtkCast(widget, to: GtkBox.self), frame, index > 0 ? frames[index - 1] : nil)
        views.insert(view, at: index)
        frames.insert(frame, at: index)
        rebuiltBlocks += 1
    }

    private func remove(at index: Int) {
        gtk_box_remove(gtkCast(widget, to: GtkBox.self), frames[index])
        views.remove(at: index)
        frames.remove(at: index)
    }

    /// The widget showing each block, in order (checks compare them across updates).
    public var blockWidgets: [Widget] { frames }

    /// How many times GTK measured block `index` (cache misses only).
    public func measureCount(ofBlock index: Int) -> Int { SingleChildLayout.measureCount(frames[index]) }
}
