import BuilderOSKit
import CGtk
import GtkKit

/// A reply's Markdown as widgets. `show(_:)` parses the whole text but rebuilds only the blocks
/// that changed — while a reply streams that is the last one, the growing tail.
@MainActor
public final class MarkdownView {
    public let widget: Widget
    private var blocks: [MarkdownBlock] = []
    private var widgets: [Widget] = []
    /// How many block widgets were rebuilt since creation (the streaming test reads it).
    public private(set) var rebuiltBlocks = 0

    public init() {
        widget = UI.vbox(spacing: Style.gapSmall)
    }

    public func show(_ text: String) {
        let next = MarkdownParser.parse(text)
        var first = 0
        while first < min(next.count, blocks.count), next[first] == blocks[first] { first += 1 }
        guard first < next.count || first < blocks.count else { return }
        for old in widgets[first...] { gtk_box_remove(gtkCast(widget, to: GtkBox.self), old) }
        widgets.removeSubrange(first...)
        for block in next[first...] {
            let w = MarkdownWidgets.make(block)
            UI.append(widget, w)
            widgets.append(w)
            rebuiltBlocks += 1
        }
        blocks = next
    }

    /// The widget showing each block, in order (checks compare them across updates).
    public var blockWidgets: [Widget] { widgets }
}
