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
        case .list: view = ListBlockView()
        case .quote, .table, .rule: return FixedBlockView(block)
        }
        _ = view.update(block)
        return view
    }
}

/// A block shown as made: a quote, a table, a rule. Any change makes a new one (they are short).
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
/// growing re-lays out only its last piece.
@MainActor
final class ParagraphView: BlockView {
    let widget = UI.vbox()
    private var labels: [Widget] = []
    private var markups: [String] = []
    private var block: MarkdownBlock?

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
    private let content = UI.vbox(spacing: Style.gapTiny)
    private var views: [BlockView] = []

    init(marker: String, _ item: [MarkdownBlock]) {
        widget = MarkdownWidgets.listItem(marker: marker, content: content)
        update(item)
    }

    /// Shows `item`'s blocks, keeping every view that can take its block.
    func update(_ item: [MarkdownBlock]) {
        for (index, block) in item.enumerated() {
            if index < views.count {
                if views[index].update(block) { continue }
                let view = BlockViews.make(block)
                gtk_box_insert_child_after(gtkCast(content, to: GtkBox.self), view.widget, views[index].widget)
                gtk_box_remove(gtkCast(content, to: GtkBox.self), views[index].widget)
                views[index] = view
            } else {
                let view = BlockViews.make(block)
                UI.append(content, view.widget)
                views.append(view)
            }
        }
        while views.count > item.count { gtk_box_remove(gtkCast(content, to: GtkBox.self), views.removeLast().widget) }
    }
}
