/// Collects the chunks of one reply. It hides `<tts-summary>…</tts-summary>` blocks (meant for
/// speech) even when a tag is split across chunks, and recognises replies that are errors in
/// disguise (`Error: …`), holding back the first characters until it knows. It keeps one copy of the
/// reply (what the user sees), and counts what arrived for the size cap.
public struct ReplyAccumulator: Sendable, Equatable {
    static let openTag = "<tts-summary>"
    static let closeTag = "</tts-summary>"
    static let errorPrefix = "Error:"

    /// Bytes received, as sent (hidden summaries included): what the reply cap counts (O(1) per chunk).
    public private(set) var receivedBytes = 0
    /// What the user sees so far.
    public private(set) var visible = ""
    public private(set) var chunkCount = 0

    private var insideSummary = false
    /// Text that may be the start of a tag, not yet shown or dropped.
    private var pending = ""
    /// Visible text held back until the `Error:` check is decided.
    private var heldBack = ""
    private var errorCheckDecided = false

    public init() {}

    /// True once the reply is known to start with `Error:`.
    public var isErrorReply: Bool {
        errorCheckDecided ? visible.hasPrefix(Self.errorPrefix) : false
    }

    /// Adds a chunk; returns the text that became visible (possibly empty).
    public mutating func append(_ chunk: String) -> String {
        receivedBytes += chunk.utf8.count
        chunkCount += 1
        let shown = filterSummary(chunk)
        return release(shown, final: false)
    }

    /// Ends the reply: flushes anything held back. Returns the last visible text.
    public mutating func finish() -> String {
        var tail = ""
        if !insideSummary { tail = pending }
        pending = ""
        return release(tail, final: true)
    }

    private mutating func release(_ text: String, final: Bool) -> String {
        if errorCheckDecided {
            visible += text
            return isErrorReply ? "" : text
        }
        heldBack += text
        let trimmed = heldBack.drop(while: { $0.isWhitespace })
        if trimmed.count >= Self.errorPrefix.count || final || !Self.errorPrefix.hasPrefix(String(trimmed)) {
            errorCheckDecided = true
            let out = heldBack
            heldBack = ""
            visible += out
            if String(trimmed).hasPrefix(Self.errorPrefix) {
                visible = String(trimmed)
                return ""
            }
            return out
        }
        return ""
    }

    private mutating func filterSummary(_ chunk: String) -> String {
        var input = pending + chunk
        pending = ""
        var output = ""
        while !input.isEmpty {
            let tag = insideSummary ? Self.closeTag : Self.openTag
            if let range = input.range(of: tag) {
                if !insideSummary { output += input[..<range.lowerBound] }
                input = String(input[range.upperBound...])
                insideSummary.toggle()
                continue
            }
            // Keep a suffix that could be the start of the tag for the next chunk.
            let keep = Self.longestSuffixThatPrefixes(tag, in: input)
            let emit = input.dropLast(keep)
            if !insideSummary { output += emit }
            pending = String(input.suffix(keep))
            input = ""
        }
        return output
    }

    static func longestSuffixThatPrefixes(_ tag: String, in text: String) -> Int {
        let maximum = min(tag.count - 1, text.count)
        guard maximum > 0 else { return 0 }
        for length in stride(from: maximum, to: 0, by: -1) where tag.hasPrefix(text.suffix(length)) {
            return length
        }
        return 0
    }
}
