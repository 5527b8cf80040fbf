/// A long paragraph cut into pieces that can each be shown by their own label, so a paragraph that
/// keeps growing while a reply streams never makes one label lay out more than a few thousand
/// bytes. Cuts fall after a sentence once a piece holds `target` bytes, or after a word once it
/// holds `limit`; only top-level text is cut (a link or an emphasis stays whole). The cuts depend
/// only on the text before them, so the pieces before the last do not change as the text grows.
public enum ParagraphChunks {
    public static func split(_ inlines: [MarkdownInline], target: Int = 1_500, limit: Int = 3_000) -> [[MarkdownInline]] {
        var chunks: [[MarkdownInline]] = [[]]
        var length = 0
        for inline in inlines {
            guard case .text(let text) = inline else {
                chunks[chunks.count - 1].append(inline)
                length += inline.plainText.utf8.count
                continue
            }
            let bytes = Array(text.utf8)
            var start = 0
            while let cut = cut(in: bytes, after: start, sentenceFrom: start + target - length, wordFrom: start + limit - length) {
                // The space at the cut ends this piece's last line; it is not shown.
                chunks[chunks.count - 1].append(.text(String(decoding: bytes[start..<(cut - 1)], as: UTF8.self)))
                chunks.append([])
                length = 0
                start = cut
            }
            if start < bytes.count {
                chunks[chunks.count - 1].append(.text(String(decoding: bytes[start...], as: UTF8.self)))
                length += bytes.count - start
            }
        }
        return chunks.filter { !$0.isEmpty }
    }

    /// Where to cut (the offset just after a space, before the end), or nil: the earlier of the first
    /// sentence end at or past `sentenceFrom` and the first space at or past `wordFrom`. Taking the
    /// earlier one keeps a cut where it is when later text brings another candidate.
    static func cut(in bytes: [UInt8], after start: Int, sentenceFrom: Int, wordFrom: Int) -> Int? {
        let space = UInt8(ascii: " ")
        var sentence: Int?
        var index = max(sentenceFrom, start + 1)
        while index < bytes.count - 1 {
            if bytes[index] == space, [UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(bytes[index - 1]) {
                sentence = index + 1
                break
            }
            index += 1
        }
        var word = max(wordFrom, start + 1)
        while word < min(bytes.count - 1, sentence ?? .max) {
            if bytes[word] == space { return word + 1 }
            word += 1
        }
        return sentence
    }
}
