import BuilderOSKit
import CGtk
import GtkKit

/// A list whose items are one paragraph each (nearly every list an assistant writes) as one text
/// label: "marker, tab, text" lines with the text at one column, wrapped lines under the text
/// (`TextLabel.setListColumn`). A `ListBlockView` makes four widgets per item (a row, the marker,
/// the text, the row's layout box); each is a CSS node GTK styles when a message row is made, and
/// with lists as one label a page of rows loaded while scrolling took a quarter less time (README).
/// A list with an item of other blocks, or too long to lay out again whole on every change while
/// it streams, is a `ListBlockView` (`update` says no, and the list is made anew as one).
@MainActor
final class ListTextView: BlockView {
    let widget = MarkdownWidgets.text("")
    private var kind: (ordered: Bool, start: Int)?
    private var markup = ""
    private var widestMarker = ""

    /// Longer lists are a widget per item: this one label is laid out again whole at each change
    /// of a streaming list (the size of a paragraph's piece, `ParagraphChunks`).
    static let maximumBytes = 1_500

    /// Whether `block` is a list this view shows.
    static func accepts(_ block: MarkdownBlock) -> Bool { markup(block) != nil }

    /// The list's markup when this view shows it: one paragraph per item, at most `maximumBytes`.
    private static func markup(_ block: MarkdownBlock) -> String? {
        guard case .list(let ordered, let start, _) = block, let items = block.paragraphListItems else { return nil }
        let markup = PangoMarkup.list(ordered: ordered, start: start, items: items)
        return markup.utf8.count <= maximumBytes ? markup : nil
    }

    func update(_ block: MarkdownBlock) -> Bool {
        guard case .list(let ordered, let start, let items) = block, let next = Self.markup(block) else { return false }
        if let kind, kind != (ordered, start) { return false }
        kind = (ordered, start)
        // The numbers grow with the list: the widest marker is the last one.
        let widest = PangoMarkup.listMarkers(ordered: ordered, start: start + max(items.count - 1, 0), count: 1)[0]
        if widest != widestMarker {
            widestMarker = widest
            TextLabel.setListColumn(widget, widestMarker: widest, gap: Style.gapSmall)
        }
        if next != markup {
            markup = next
            MarkdownWidgets.setMarkup(widget, next)
        }
        return true
    }
}
