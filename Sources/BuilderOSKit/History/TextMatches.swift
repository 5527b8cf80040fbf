import Foundation

/// Where a search's terms occur in a text as shown, by the index's own rules (`HistorySchema`'s
/// `unicode61 remove_diacritics 2`): words are runs of letters and digits, compared without case
/// or accents; a typed word matches the start of a word, a quoted phrase whole words in a row.
/// The find bar marks these in the rendered Markdown, which the index never sees.
public enum TextMatches {
    /// The UTF-8 byte ranges of `text` that `terms` match (whole words), in order, overlaps merged.
    public static func utf8Ranges(of terms: [SearchQuery.Term], in text: String) -> [Range<Int>] {
        let wanted = terms.map { (words: words(in: $0.text).map(\.folded), prefix: $0.prefix) }.filter { !$0.words.isEmpty }
        guard !wanted.isEmpty else { return [] }
        let shown = words(in: text)
        var found: [Range<Int>] = []
        for start in shown.indices {
            for term in wanted where start + term.words.count <= shown.count {
                let candidates = shown[start..<start + term.words.count]
                let matches = zip(candidates, term.words).enumerated().allSatisfy { offset, pair in
                    offset == term.words.count - 1 && term.prefix ? pair.0.folded.hasPrefix(pair.1) : pair.0.folded == pair.1
                }
                if matches { found.append(candidates.first!.bytes.lowerBound..<candidates.last!.bytes.upperBound) }
            }
        }
        return merged(found.sorted { $0.lowerBound < $1.lowerBound })
    }

    struct Word {
        var folded: String
        var bytes: Range<Int>
    }

    /// The words of `text` with their UTF-8 byte ranges.
    static func words(in text: String) -> [Word] {
        var result: [Word] = []
        var offset = 0
        var start: Int?
        var current = ""
        func close() {
            if let begin = start { result.append(Word(folded: fold(current), bytes: begin..<offset)) }
            start = nil
            current = ""
        }
        for character in text {
            if character.isLetter || character.isNumber {
                if start == nil { start = offset }
                current.append(character)
            } else {
                close()
            }
            offset += character.utf8.count
        }
        close()
        return result
    }

    static func fold(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
