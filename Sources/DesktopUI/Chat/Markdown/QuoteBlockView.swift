import BuilderOSKit
import CGtk
import GtkKit

/// A quote: a bar before its blocks, dimmed. While it streams, its blocks take new content in place
/// (`BlockStack`), as a list item's do: only its growing block is laid out again.
@MainActor
final class QuoteBlockView: BlockView {
    let widget: Widget
    private let blocks = BlockStack()

    init() {
        let bar = UI.vbox(classes: [Style.separator])
        UI.size(bar, width: Layout.px("quote-bar"))
        UI.addClasses(blocks.widget, [Style.dim])
        widget = LeadingLayout.box(spacing: Style.gapSmall, leading: bar, content: blocks.widget)
    }

    func update(_ block: MarkdownBlock) -> Bool {
        guard case .quote(let inner) = block else { return false }
        blocks.update(inner)
        return true
    }
}

/// Blocks in a vertical box, each shown by a `BlockView` that takes its block's new content in
/// place; a view that cannot (another kind of block) is replaced where it stands.
@MainActor
final class BlockStack {
    let widget: Widget
    private(set) var views: [BlockView] = []

    init(spacing: Int32 = Style.gapSmall) { widget = UI.vbox(spacing: spacing) }

    /// Takes `view` as its first block (a list item's, until then beside its marker and now unparented).
    func adopt(_ view: BlockView) {
        UI.append(widget, view.widget)
        views.insert(view, at: 0)
    }

    func update(_ blocks: [MarkdownBlock]) {
        let box = gtkCast(widget, to: GtkBox.self)
        for (index, block) in blocks.enumerated() {
            if index < views.count {
                if views[index].update(block) { continue }
                let view = BlockViews.make(block)
                gtk_box_insert_child_after(box, view.widget, views[index].widget)
                gtk_box_remove(box, views[index].widget)
                views[index] = view
            } else {
                let view = BlockViews.make(block)
                UI.append(widget, view.widget)
                views.append(view)
            }
        }
        while views.count > blocks.count { gtk_box_remove(box, views.removeLast().widget) }
    }
}
