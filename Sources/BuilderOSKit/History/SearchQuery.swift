/// What the user typed in a search field, turned into an FTS5 expression. Words match as prefixes
/// (results come as the user types), `"two words"` matches that phrase, `-word` or `-"a phrase"`
/// leaves out the messages that have it. Every term goes to FTS5 quoted, so no input is an FTS5
/// syntax error; accents fold through the index's tokenizer ("resume" finds "résumé").
public struct SearchQuery: Sendable, Equatable {
    /// The FTS5 expression; nil when nothing was typed that could match (empty, or only exclusions).
    public let expression: String?
    /// The words and phrases to find, as typed (for highlighting outside the index: `TextMatches`).
    public let terms: [Term]

    /// A word or phrase to find; `prefix`: its last word may go on (a word typed, not a quoted phrase).
    public struct Term: Sendable, Equatable {
        public var text: String
        public var prefix: Bool
    }

    public init(_ text: String) {
        var include: [String] = []
        var exclude: [String] = []
        var terms: [Term] = []
        for token in Self.tokens(String(text.prefix(Self.maximumLength))) {
            guard token.text.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            let quoted = "\"" + token.text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            if token.excluded {
                exclude.append(quoted)
            } else {
                include.append(token.phrase ? quoted : quoted + "*")
                terms.append(Term(text: token.text, prefix: !token.phrase))
            }
        }
        self.terms = terms
        guard !include.isEmpty else {
            expression = nil
            return
        }
        let wanted = include.joined(separator: " AND ")
        expression = exclude.isEmpty ? wanted : "(\(wanted)) NOT (\(exclude.joined(separator: " OR ")))"
    }

    /// Longer input is cut: nobody types more, and FTS5's work grows with the terms.
    static let maximumLength = 256

    struct Token {
        var text: String
        var phrase: Bool
        var excluded: Bool
    }

    /// Splits on spaces outside quotes; a leading `-` excludes; an unclosed quote runs to the end.
    static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index].isWhitespace {
                index = text.index(after: index)
                continue
            }
            var excluded = false
            if text[index] == "-", text.index(after: index) < text.endIndex, !text[text.index(after: index)].isWhitespace {
                excluded = true
                index = text.index(after: index)
            }
            if text[index] == "\"" {
                let start = text.index(after: index)
                let end = text[start...].firstIndex(of: "\"") ?? text.endIndex
                tokens.append(Token(text: String(text[start..<end]), phrase: true, excluded: excluded))
                index = end < text.endIndex ? text.index(after: end) : end
            } else {
                let end = text[index...].firstIndex(where: \.isWhitespace) ?? text.endIndex
                tokens.append(Token(text: String(text[index..<end]), phrase: false, excluded: excluded))
                index = end
            }
        }
        return tokens
    }
}
