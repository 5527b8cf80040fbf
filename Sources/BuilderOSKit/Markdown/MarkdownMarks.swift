/// Markdown source as its reader meets it rendered, without parsing it: the marks a reply's bubble
/// draws as formatting (strong, emphasis with underscores, strikethrough, code, heading and quote
/// marks) are left out, so that a screen reader does not spell them. For short texts a row shows
/// or names before its Markdown is rendered (a search hit's snippet, a reply's accessible name);
/// single `*` and list markers stay, as they are also plain text.
public enum MarkdownMarks {
    public static func removed(from source: String) -> String {
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = line.drop { $0 == " " }
            var marked = false
            while rest.hasPrefix("> ") || rest == ">" { (rest, marked) = (rest.dropFirst(2), true) }
            let hashes = rest.prefix { $0 == "#" }.count
            if (1...6).contains(hashes), rest.dropFirst(hashes).first == " " { (rest, marked) = (rest.dropFirst(hashes + 1), true) }
            lines.append(marked ? rest : line)
        }
        return inlineRemoved(from: lines.joined(separator: "\n"))
    }

    /// Only the marks inside a line: for a piece cut out of one (a snippet's runs). One pass over
    /// the bytes, as it runs for every row a search keystroke shows.
    public static func inlineRemoved(from piece: String) -> String {
        let (star, underscore, tilde, backtick) = (UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"))
        var kept: [UInt8] = []
        var removed = false
        var bytes = piece.utf8.makeIterator()
        var next = bytes.next()
        while let byte = next {
            next = bytes.next()
            if byte == backtick {
                removed = true
            } else if byte == next, byte == star || byte == underscore || byte == tilde {
                (removed, next) = (true, bytes.next())
            } else {
                kept.append(byte)
            }
        }
        return removed ? String(decoding: kept, as: UTF8.self) : piece
    }
}
