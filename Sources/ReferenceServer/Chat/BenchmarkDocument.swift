/// A long, realistic Markdown reply for benchmarks and streaming tests: sections with headings,
/// paragraphs of several sentences with inline formatting and links, bullet and numbered lists,
/// fenced code blocks, tables and quotes — what an assistant writes when asked for a design
/// document. Deterministic: the same size gives the same text.
public enum BenchmarkDocument {
    public static func text(bytes: Int) -> String {
        var out = ""
        out.reserveCapacity(bytes + 2_000)
        var section = 0
        while out.utf8.count < bytes {
            section += 1
            out += self.section(section)
        }
        return out
    }

    /// The document cut into token-sized chunks, the way Jarvis streams (`AssistantReply.chunks`).
    public static func chunks(bytes: Int) -> [String] {
        AssistantReply.chunks(of: text(bytes: bytes), agent: "jarvis")
    }

    /// A conversation's message `index` as people and assistants write them: questions of one to
    /// three sentences; replies of 200–3,000 characters with a heading, paragraphs, a list and
    /// sometimes a code block or a table.
    public static func conversationMessage(_ index: Int) -> (fromUser: Bool, text: String) {
        if index % 2 == 0 {
            let question = [
                "How does \(topics[index % topics.count]) handle a dropped connection?",
                "Can you check why the last deploy took so long? It felt slower than usual.",
                "What should I change so \(topics[(index / 2) % topics.count]) retries less often? The logs are noisy. Keep it short.",
            ]
            return (true, question[index % 3])
        }
        let target = 200 + (index * 937) % 2_800
        let full = section(index)
        // Cut at a line end; a code block cut open is closed.
        var lines: [Substring] = []
        var length = 0
        for line in full.split(separator: "\n", omittingEmptySubsequences: false) where length < target {
            lines.append(line)
            length += line.utf8.count + 1
        }
        var text = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.components(separatedBy: "```").count % 2 == 0 { text += "\n```" }
        return (false, text)
    }

    private static let topics = [
        "the sync engine", "the upload queue", "the session store", "the capsule scheduler",
        "the notification relay", "the tunnel watchdog", "the audit log", "the cache layer",
    ]

    private static func section(_ n: Int) -> String {
        let topic = topics[n % topics.count]
        var s = "## \(n). How \(topic) works\n\n"
        s += paragraph(n, sentences: 3 + n % 3)
        s += "\n\n"
        s += "Things to keep in mind about \(topic):\n\n"
        for i in 1...(3 + n % 4) {
            s += "- **Rule \(i)** for `\(topic.split(separator: " ").last!)`: \(sentence(n * 7 + i))\n"
        }
        s += "\n"
        if n % 2 == 0 {
            s += "```swift\n"
            for line in 0..<(6 + n % 10) {
                s += "    let value\(line) = try await store.fetch(id: \"item-\(n)-\(line)\", timeout: .seconds(\(line + 1)))\n"
            }
            s += "```\n\n"
        } else {
            s += "| Step | Owner | Takes |\n|---|---|---|\n"
            for i in 1...(3 + n % 3) { s += "| step \(i) of \(topic) | team \(i % 3 + 1) | \(i * 15) ms |\n" }
            s += "\n"
        }
        if n % 3 == 0 { s += "> Note: \(sentence(n * 3)) \(sentence(n * 3 + 1))\n\n" }
        for i in 1...(2 + n % 2) { s += "\(i). \(sentence(n * 5 + i))\n" }
        s += "\n"
        s += paragraph(n + 100, sentences: 4 + n % 4)
        s += "\n\n"
        return s
    }

    private static func paragraph(_ seed: Int, sentences: Int) -> String {
        (0..<sentences).map { sentence(seed * 11 + $0) }.joined(separator: " ")
    }

    private static let subjects = ["The client", "Each request", "A retry", "The server", "This step", "The worker", "Every reply"]
    private static let verbs = ["waits for", "checks", "writes", "reads back", "keeps", "drops", "sends"]
    private static let objects = [
        "the *newest* record", "a **signed** token", "the `pending` list", "one batch at a time",
        "the [upstream index](https://builderos.example.com/docs/index)", "every open handle",
    ]
    private static let tails = [
        "before it answers", "so nothing is lost when the network drops",
        "and then reports back to the caller", "within the configured deadline",
        "unless the user cancelled the operation", "while the previous step is still running",
    ]

    private static func sentence(_ seed: Int) -> String {
        "\(subjects[seed % subjects.count]) \(verbs[(seed / 3) % verbs.count]) \(objects[(seed / 5) % objects.count]) \(tails[(seed / 2) % tails.count])."
    }
}
