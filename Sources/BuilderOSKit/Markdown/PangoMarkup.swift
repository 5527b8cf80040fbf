/// Turns inlines into Pango markup for a GtkLabel: escaped text, <b>, <i>, <s>, <tt> and
/// <a href>. Pango markup is a string format, so this lives in the core and is tested there.
public enum PangoMarkup {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }

    public static func render(_ inlines: [MarkdownInline]) -> String {
        inlines.map(render).joined()
    }

    public static func render(_ inline: MarkdownInline) -> String {
        switch inline {
        case .text(let s): return escape(s)
        case .code(let s): return "<tt>" + escape(s) + "</tt>"
        case .emphasis(let c): return "<i>" + render(c) + "</i>"
        case .strong(let c): return "<b>" + render(c) + "</b>"
        case .strikethrough(let c): return "<s>" + render(c) + "</s>"
        case .link(let url, let c): return "<a href=\"" + escape(url) + "\">" + render(c) + "</a>"
        case .lineBreak: return "\n"
        }
    }

    /// A heading's markup: larger and bold by level.
    public static func heading(level: Int, _ inlines: [MarkdownInline]) -> String {
        let size = level <= 1 ? "x-large" : level == 2 ? "large" : "medium"
        return "<span size=\"\(size)\" weight=\"bold\">" + render(inlines) + "</span>"
    }

    /// The markers of a list's items: "•", or the numbers from `start` ("3.").
    public static func listMarkers(ordered: Bool, start: Int, count: Int) -> [String] {
        (0..<count).map { ordered ? "\(start + $0)." : "•" }
    }

    /// A list whose items are one paragraph each as the markup of one text: a line per item,
    /// "marker, tab, text", for a label with a tab stop and a hanging indent at the text's column
    /// (one label where a widget per item, marker and text cost four). A line break inside an item
    /// is a line separator (U+2028), a new line of the same item, not a new one.
    public static func list(ordered: Bool, start: Int, items: [[MarkdownInline]]) -> String {
        zip(listMarkers(ordered: ordered, start: start, count: items.count), items)
            .map { marker, inlines in
                marker + "\t" + render(inlines).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\u{2028}")
            }
            .joined(separator: "\n")
    }
}

extension MarkdownBlock {
    /// A list's items when each is a single paragraph (what `PangoMarkup.list` shows) or empty (its
    /// marker alone: an item a streaming reply has only begun, "- "); nil for any other block, and
    /// for a list with an item of other blocks (a nested list, code).
    public var paragraphListItems: [[MarkdownInline]]? {
        guard case .list(_, _, let items) = self else { return nil }
        var result: [[MarkdownInline]] = []
        for item in items {
            if item.isEmpty { result.append([]); continue }
            guard item.count == 1, case .paragraph(let inlines) = item[0] else { return nil }
            result.append(inlines)
        }
        return result
    }
}
