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
}
