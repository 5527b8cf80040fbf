/// The deterministic reply the reference server streams: it quotes the user's message and holds
/// the Markdown a client must render (a heading, a list, a fenced code block) plus a
/// `<tts-summary>` block a client must hide.
public enum AssistantReply {
    public static func text(for message: String, agent: String) -> String {
        let name = agent == "codex" ? "Codex" : "Jarvis"
        return """
            ## \(name) here

            You said: “\(message)”

            Here is what this reference server can show you:

            - streamed replies, chunk by chunk
            - **Markdown** with `inline code`
            - a fenced code block

            ```swift
            let greeting = "Hello from BuilderOS"
            print(greeting)
            ```

            | Feature | Shown as |
            |---|---|
            | Streaming | chunks |
            | Tables | a grid |

            <tts-summary>\(name) repeated your message.</tts-summary>
            Read more in [the BuilderOS guide](https://builderos.example.com/guide). That is all for now.
            """
    }

    /// A reply of exactly `bytes` bytes: numbered lines of text, for size tests.
    public static func giant(bytes: Int) -> String {
        var text = ""
        text.reserveCapacity(bytes)
        var line = 0
        while text.utf8.count < bytes {
            line += 1
            text += "line \(line): the quick brown fox jumps over the lazy dog\n"
        }
        return String(decoding: text.utf8.prefix(bytes), as: UTF8.self)
    }

    /// Jarvis streams small token-like deltas; Codex sends the whole answer in 100-character slices.
    static func chunks(of text: String, agent: String) -> [String] {
        if agent == "codex" { return slices(text, size: 100) }
        var result: [String] = []
        var current = ""
        for ch in text {
            current.append(ch)
            if ch == " " || ch == "\n" || current.count >= 12 {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    static func slices(_ text: String, size: Int) -> [String] {
        var result: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let end = text.index(index, offsetBy: size, limitedBy: text.endIndex) ?? text.endIndex
            result.append(String(text[index..<end]))
            index = end
        }
        return result
    }
}
