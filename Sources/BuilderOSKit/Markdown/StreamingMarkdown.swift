import Foundation

/// A reply's Markdown while it grows at its end. Every top-level block before the last two is
/// closed: what arrives later cannot change it (a paragraph ends at a blank line, a list when
/// something else starts, a code block at its fence). The last two stay open because the newest
/// block can still join the one before it (a GFM table's next row is a paragraph until it is
/// complete; "2" after a numbered list becomes its next item). So each update parses only the
/// text from the second-to-last block's first line, and its cost follows the open blocks, not the
/// reply.
///
/// The one construct this gives up: a link reference definition (`[id]: url`) applies only to
/// references after it in the same re-parsed tail. Replies written by assistants use inline links.
public struct StreamingMarkdown: Sendable {
    /// Blocks that will not change any more, in order.
    public private(set) var closed: [MarkdownBlock] = []
    /// The last blocks (at most two), the newest still growing.
    public private(set) var open: [MarkdownBlock] = []
    /// The text the closed blocks came from, up to the first line of the open part.
    private var closedSource = ""

    public init() {}

    /// What an update changed, for a view that keeps a widget per block.
    public struct Change: Equatable, Sendable {
        /// The text did not extend the previous one (it was replaced): every block is new.
        public var reset: Bool
        /// Blocks before this index (in `blocks`) are the same as before the update.
        public var firstChanged: Int
    }

    /// `closed` and then `open`.
    public var blocks: [MarkdownBlock] { closed + open }

    /// Takes the whole text so far.
    public mutating func update(_ text: String) -> Change {
        var reset = false
        if !Self.text(text, startsWith: closedSource) {
            closed = []
            closedSource = ""
            reset = true
        }
        let firstChanged = reset ? 0 : closed.count
        let tail = String(decoding: text.utf8.dropFirst(closedSource.utf8.count), as: UTF8.self)
        let located = MarkdownParser.parseLocated(tail)
        open = located.suffix(Self.openCount).map(\.block)
        guard located.count > Self.openCount else { return Change(reset: reset, firstChanged: firstChanged) }
        let firstOpen = located[located.count - Self.openCount]
        closed += located.dropLast(Self.openCount).map(\.block)
        closedSource += String(decoding: tail.utf8.prefix(Self.offset(ofLine: firstOpen.line, in: tail)), as: UTF8.self)
        return Change(reset: reset, firstChanged: firstChanged)
    }

    static let openCount = 2

    /// The byte offset where line `line` (from 1) starts.
    static func offset(ofLine line: Int, in text: String) -> Int {
        var remaining = line - 1
        var offset = 0
        for byte in text.utf8 {
            if remaining == 0 { break }
            offset += 1
            if byte == UInt8(ascii: "\n") { remaining -= 1 }
        }
        return offset
    }

    private static func text(_ text: String, startsWith prefix: String) -> Bool {
        let count = prefix.utf8.count
        guard count > 0 else { return true }
        guard text.utf8.count >= count else { return false }
        var text = text, prefix = prefix  // native contiguous storage: compared with memcmp
        return text.withUTF8 { t in prefix.withUTF8 { p in memcmp(t.baseAddress!, p.baseAddress!, count) == 0 } }
    }
}
