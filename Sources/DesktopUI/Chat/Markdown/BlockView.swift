import BuilderOSKit
import CGtk
import GtkKit

/// The widget of one top-level Markdown block. While a reply streams only the last block changes:
/// its view takes the new content in place when it can (a paragraph or code block that grew, a
/// list with a new item), touching only the part that changed.
@MainActor
protocol BlockView: AnyObject {
    var widget: Widget { get }
    /// Shows `block` in place; false when this view cannot (another kind of block): the caller
    /// replaces it with a new view.
    func update(_ block: MarkdownBlock) -> Bool
}

@MainActor
enum BlockViews {
    static func make(_ block: MarkdownBlock) -> BlockView {
        let view: BlockView
        switch block {
        case .paragraph, .heading: view = ParagraphView()
        case .code: view = CodeBlockView()
        case .list: view = ListTextView.accepts(block) ? ListTextView() : ListBlockView()
        case .table: view = TableBlockView()
        case .quote: view = QuoteBlockView()
        case .rule: return FixedBlockView(block)
        }
        _ = view.update(block)
        return view
    }
}

/// A block shown as made: a rule (it never changes).
@MainActor
final class FixedBlockView: BlockView {
    let widget: Widget
    private let block: MarkdownBlock

    init(_ block: MarkdownBlock) {
        self.block = block
        widget = MarkdownWidgets.make(block)
    }

    func update(_ block: MarkdownBlock) -> Bool { block == self.block }
}

/// A paragraph or heading: one label per piece (`ParagraphChunks`), so a paragraph that keeps
/// growing re-lays out only its last piece. A paragraph of one piece (nearly all) is the label
/// itself, without a box around it: every widget is a CSS node that GTK styles when a message row
/// is made, and making rows is what scrolling through a long conversation pays for. A one-piece
/// paragraph that grows a second piece is replaced by a view with a box (`update` says no).
@MainActor
final class ParagraphView: BlockView {
    /// Made at the first update: the label, or a box of them.
    private var shown: Widget?
    var widget: Widget { shown! }
    private var labels: [Widget] = []
    private var markups: [String] = []
    private var block: MarkdownBlock?
    /// Whether `widget` is the one label (not a box of pieces).
    private var single = false

    func update(_ block: MarkdownBlock) -> Bool {
        guard block != self.block else { return true }
        let next: [String]
        switch (self.block, block) {
        case (nil, .paragraph(let inlines)), (.paragraph?, .paragraph(let inlines)):
            next = ParagraphChunks.split(inlines).map { PangoMarkup.render($0) }
        case (nil, .heading(let level, let inlines)):
            next = [PangoMarkup.heading(level: level, inlines)]
        case (.heading(let old, _)?, .heading(let level, let inlines)) where old == level:
            next = [PangoMarkup.heading(level: level, inlines)]
        default: return false
        }
        if shown == nil, next.count == 1 {
            let label = MarkdownWidgets.text(next[0])
            (shown, labels, markups, single, self.block) = (label, [label], next, true, block)
            return true
        }
        if shown == nil { shown = UI.vbox() }
        if single, next.count != 1 { return false }
        self.block = block
        for (index, markup) in next.enumerated() {
            if index < labels.count {
                if markups[index] != markup { MarkdownWidgets.setMarkup(labels[index], markup) }
            } else {
                let label = MarkdownWidgets.text(markup)
                UI.append(widget, label)
                labels.append(label)
            }
        }
        while labels.count > next.count { gtk_box_remove(gtkCast(widget, to: GtkBox.self), labels.removeLast()) }
        markups = next
        return true
    }
}

/// A list: a row per item (marker and content). A changed item updates in place: the growing item
/// of a streaming list re-lays out only its last piece.
@MainActor
final class ListBlockView: BlockView {
    let widget = UI.vbox(spacing: Style.gapTiny)
    private var rows: [ListItemView] = []
    private var items: [[MarkdownBlock]] = []
    private var kind: (ordered: Bool, start: Int)?

    func update(_ block: MarkdownBlock) -> Bool {
        guard case .list(let ordered, let start, let next) = block else { return false }
        if let kind, kind != (ordered, start) { return false }
        kind = (ordered, start)
        for (index, item) in next.enumerated() where index >= items.count || items[index] != item {
            if index < rows.count {
                rows[index].update(item)
            } else {
                let row = ListItemView(marker: ordered ? "\(start + index)." : "•", item)
                UI.append(widget, row.widget)
                rows.append(row)
            }
        }
        while rows.count > next.count { gtk_box_remove(gtkCast(widget, to: GtkBox.self), rows.removeLast().widget) }
        items = next
        return true
    }
}

/// One list item: its marker and its blocks, each a `BlockView` that takes new content in place.
@MainActor
final class ListItemView {
    let widget: Widget
    /// The item's blocks, once it has other than one: a single block (nearly every item) stands
    /// beside the marker by itself, one widget fewer to make and style.
    private var stack: BlockStack?
    private var single: BlockView?

    init(marker: String, _ item: [MarkdownBlock]) {
        if item.count == 1 {
            let view = BlockViews.make(item[0])
            single = view
            widget = MarkdownWidgets.listItem(marker: marker, content: view.widget)
        } else {
            let stack = BlockStack(spacing: Style.gapTiny)
            self.stack = stack
            widget = MarkdownWidgets.listItem(marker: marker, content: stack.widget)
            stack.update(item)
        }
    }

    /// Shows `item`'s blocks, keeping every view that can take its block.
    func update(_ item: [MarkdownBlock]) {
        if let view = single {
            if item.count == 1 {
                if view.update(item[0]) { return }
                let replacement = BlockViews.make(item[0])
                single = replacement
                LeadingLayout.setContent(widget, replacement.widget)
                return
            }
            // A second block (or none): from now on the blocks stand in a box.
            let first = view.widget
            g_object_ref(UnsafeMutableRawPointer(first))
            let stack = BlockStack(spacing: Style.gapTiny)
            LeadingLayout.setContent(widget, stack.widget)
            stack.adopt(view)
            g_object_unref(UnsafeMutableRawPointer(first))
            (self.stack, single) = (stack, nil)
        }
        stack?.update(item)
    }
}
