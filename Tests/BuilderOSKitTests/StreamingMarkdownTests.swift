import Testing

@testable import BuilderOSKit

/// The rules the chat view's cost rests on: a streamed reply parsed only from its open block gives
/// the same blocks as parsing it whole, at every point the stream can be cut; closed blocks never
/// change; a long paragraph's pieces before the last never change as it grows.
struct StreamingMarkdownTests {
    static let reply = """
        # Plan for the sync engine

        The client waits for the *newest* record before it answers. Each request checks a **signed**
        token, then writes the `pending` list — see [the guide](https://builderos.example.com/guide).

        - first item with `code`
        - second item

          continued after a blank line
        - third item
          - nested one
          - nested two

        3. ordered from three
        4. and four

        ```swift
        let a = 1

        let b = 2
        ```

            indented code
            more of it

        | Step | Owner | Takes |
        |---|---:|---|
        | parse | team 1 | 15 ms |
        | render | team 2 | 30 ms |

        1. loose numbered item

        2. second, after a blank line

        10. tenth
        A paragraph right before a table:
        | a | b |
        |---|---|
        | 1 | 2 |
        Text right after the table.

        Term line
        ===

        > A quote with a paragraph.
        >
        > And a second one.

        Setext heading
        ---

        ***

        <div>raw html stays text</div>

        Last paragraph with a line break  
        after two spaces, and an ~~old~~ word.
        """

    @Test func everyPrefixParsesLikeTheWholeText() {
        var streaming = StreamingMarkdown()
        var prefix = ""
        for character in Self.reply {
            prefix.append(character)
            _ = streaming.update(prefix)
            #expect(streaming.blocks == MarkdownParser.parse(prefix), "after \(prefix.utf8.count) bytes")
        }
        #expect(streaming.closed.count == MarkdownParser.parse(Self.reply).count - 2)
    }

    @Test func chunksOfEverySizeGiveTheSameBlocks() {
        let whole = MarkdownParser.parse(Self.reply)
        let characters = Array(Self.reply)
        for size in [2, 3, 5, 7, 12, 31, 100] {
            var streaming = StreamingMarkdown()
            var end = 0
            var closedBefore: [MarkdownBlock] = []
            while end < characters.count {
                end = min(end + size, characters.count)
                let change = streaming.update(String(characters[..<end]))
                #expect(!change.reset)
                #expect(change.firstChanged == closedBefore.count)
                // What was closed stays exactly as it was.
                #expect(Array(streaming.closed.prefix(closedBefore.count)) == closedBefore, "chunk size \(size)")
                closedBefore = streaming.closed
            }
            #expect(streaming.blocks == whole, "chunk size \(size)")
        }
    }

    @Test func replacedTextStartsOver() {
        var streaming = StreamingMarkdown()
        _ = streaming.update("# One\n\nfirst paragraph\n\nsecond\n\nthird")
        #expect(streaming.closed.count == 2)
        let change = streaming.update("# Two\n\nother")
        #expect(change == .init(reset: true, firstChanged: 0))
        #expect(streaming.blocks == MarkdownParser.parse("# Two\n\nother"))
        #expect(streaming.update("# Two\n\nother\n\nmore") == .init(reset: false, firstChanged: 0))
        #expect(streaming.closed == [.heading(level: 1, [.text("Two")])])
        #expect(streaming.update("# Two\n\nother\n\nmore\n\nlast") == .init(reset: false, firstChanged: 1))
        #expect(streaming.closed == [.heading(level: 1, [.text("Two")]), .paragraph([.text("other")])])
        #expect(streaming.open == [.paragraph([.text("more")]), .paragraph([.text("last")])])
    }

    @Test func blankTailHasNoOpenBlock() {
        var streaming = StreamingMarkdown()
        _ = streaming.update("")
        #expect(streaming.blocks.isEmpty)
        _ = streaming.update("\n\n  ")
        #expect(streaming.blocks.isEmpty)
    }

    static let longParagraph =
        (0..<400).map { i in
            i % 9 == 8 ? "Sentence \(i) ends here!" : i % 13 == 0 ? "a **bold \(i)** part and" : "word\(i)"
        }.joined(separator: " ") + " " + String(repeating: "x", count: 4_000) + " tail"

    @Test func longParagraphPiecesAreBoundedAndStable() {
        guard case .paragraph(let whole)? = MarkdownParser.parse(Self.longParagraph).first else { Issue.record("a paragraph"); return }
        let final = ParagraphChunks.split(whole)
        #expect(final.count > 3)
        // Nothing is lost: the pieces read as the paragraph (cuts drop one space each).
        #expect(final.map { $0.map(\.plainText).joined() }.joined(separator: " ") == whole.map(\.plainText).joined())
        for piece in final.dropLast() {
            let bytes = piece.map(\.plainText).joined().utf8.count
            #expect(bytes <= 3_000 + 4_000 + 64, "a piece holds \(bytes) bytes")
        }
        // Every shorter text cut the same way: its pieces but the last are the final ones.
        let characters = Array(Self.longParagraph)
        for end in stride(from: 50, to: characters.count, by: 37) {
            guard case .paragraph(let inlines)? = MarkdownParser.parse(String(characters[..<end])).first else { continue }
            let pieces = ParagraphChunks.split(inlines)
            #expect(Array(pieces.dropLast()) == Array(final.prefix(pieces.count - 1)), "after \(end) characters")
        }
    }

    @Test func shortParagraphIsOnePiece() {
        #expect(ParagraphChunks.split([.text("Short. Very short.")]) == [[.text("Short. Very short.")]])
    }
}

/// cmark-gfm's extension characters live in one process-wide table: parsers on several threads at
/// once must still all see strikethrough and autolinks.
struct ConcurrentMarkdownTests {
    @Test func parsesOnManyThreadsAgree() async {
        let text = "an ~~old~~ word and https://builderos.example.com/guide here"
        let expected = MarkdownParser.parse(text)
        #expect(expected.description.contains("strikethrough") && expected.description.contains("link"))
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<300).filter { _ in MarkdownParser.parse(text) != expected }.count }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
