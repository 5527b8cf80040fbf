/// A reply's Markdown as blocks and inlines: what the chat view draws. Built by `MarkdownParser`
/// (cmark-gfm); no GTK here, so rendering rules are tested without a display.
public indirect enum MarkdownBlock: Sendable, Equatable {
    case paragraph([MarkdownInline])
    case heading(level: Int, [MarkdownInline])
    /// A fenced or indented code block: shown wide, monospace, scrollable, with a Copy button.
    case code(language: String?, text: String)
    case list(ordered: Bool, start: Int, items: [[MarkdownBlock]])
    case quote([MarkdownBlock])
    case table(header: [[MarkdownInline]], rows: [[[MarkdownInline]]])
    case rule
}

public indirect enum MarkdownInline: Sendable, Equatable {
    case text(String)
    case code(String)
    case emphasis([MarkdownInline])
    case strong([MarkdownInline])
    case strikethrough([MarkdownInline])
    /// A link the user can open; only web and mail addresses become links (`MarkdownParser.isOpenable`).
    case link(url: String, [MarkdownInline])
    case lineBreak
}

extension MarkdownInline {
    /// The inline's text without formatting (for copying and accessible labels).
    public var plainText: String {
        switch self {
        case .text(let s), .code(let s): return s
        case .emphasis(let c), .strong(let c), .strikethrough(let c), .link(_, let c): return c.map(\.plainText).joined()
        case .lineBreak: return "\n"
        }
    }
}
