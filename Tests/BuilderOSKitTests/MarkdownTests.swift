import Testing

@testable import BuilderOSKit

struct MarkdownTests {
    @Test func headingsListsCodeAndTables() {
        let blocks = MarkdownParser.parse(
            """
            # Title

            Some *emphasis*, **strong**, ~~gone~~ and `code`.

            1. one
            2. two

            ```swift
            let x = 1
            ```

            | A | B |
            |---|---|
            | 1 | 2 |
            """)
        #expect(blocks.count == 5)
        #expect(blocks[0] == .heading(level: 1, [.text("Title")]))
        #expect(
            blocks[1]
                == .paragraph([
                    .text("Some "), .emphasis([.text("emphasis")]), .text(", "), .strong([.text("strong")]),
                    .text(", "), .strikethrough([.text("gone")]), .text(" and "), .code("code"), .text("."),
                ]))
        #expect(blocks[2] == .list(ordered: true, start: 1, items: [[.paragraph([.text("one")])], [.paragraph([.text("two")])]]))
        #expect(blocks[3] == .code(language: "swift", text: "let x = 1"))
        #expect(blocks[4] == .table(header: [[.text("A")], [.text("B")]], rows: [[[.text("1")], [.text("2")]]]))
    }

    @Test func aListOfParagraphsIsOneTextWithMarkersAndTabs() throws {
        let blocks = MarkdownParser.parse("3. first *one*  \n   broken line\n4. second & <last>\n")
        let items = try #require(blocks.first?.paragraphListItems)
        #expect(items.count == 2)
        let markup = PangoMarkup.list(ordered: true, start: 3, items: items)
        // A line per item; the hard break inside the first is a line separator, not a new item.
        #expect(markup == "3.\tfirst <i>one</i>\u{2028}broken line\n4.\tsecond &amp; &lt;last&gt;")
        #expect(PangoMarkup.listMarkers(ordered: false, start: 1, count: 2) == ["•", "•"])
        // An item of more than one paragraph, or with a nested list, is not such a list.
        #expect(MarkdownParser.parse("- a\n\n  more a\n- b\n").first?.paragraphListItems == nil)
        #expect(MarkdownParser.parse("- a\n  - nested\n").first?.paragraphListItems == nil)
        #expect(MarkdownParser.parse("plain").first?.paragraphListItems == nil)
        // An item a streaming reply has only begun is its marker alone: the list stays one text.
        let begun = try #require(MarkdownParser.parse("- a\n- ").first?.paragraphListItems)
        #expect(begun.count == 2 && begun[1].isEmpty)
        #expect(PangoMarkup.list(ordered: false, start: 1, items: begun) == "•\ta\n•\t")
    }

    @Test func onlyWebAndMailLinksOpen() {
        let blocks = MarkdownParser.parse("[site](https://example.com) [bad](javascript:alert(1)) <https://auto.example>")
        guard case .paragraph(let inlines) = blocks.first else { Issue.record("no paragraph"); return }
        #expect(inlines.first == .link(url: "https://example.com", [.text("site")]))
        #expect(inlines.contains(.emphasis([.text("bad")])))
        #expect(inlines.contains { if case .link("https://auto.example", _) = $0 { true } else { false } })
    }

    @Test func rawHTMLStaysLiteralAndMarkupIsEscaped() {
        let blocks = MarkdownParser.parse("Hello <b>there</b> & <span foo='x'>")
        guard case .paragraph(let inlines) = blocks.first else { Issue.record("no paragraph"); return }
        let markup = PangoMarkup.render(inlines)
        #expect(markup == "Hello &lt;b&gt;there&lt;/b&gt; &amp; &lt;span foo=&apos;x&apos;&gt;")
        #expect(
            PangoMarkup.render([.link(url: "https://a.example/?q=\"x\"&y", [.strong([.text("go")])])])
                == "<a href=\"https://a.example/?q=&quot;x&quot;&amp;y\"><b>go</b></a>")
    }

    @Test func unfinishedStreamingMarkdownStillParses() {
        // A reply cut mid-fence (as it streams) is a code block that grows.
        let blocks = MarkdownParser.parse("Intro\n\n```py\nprint(1)\npri")
        #expect(blocks.last == .code(language: "py", text: "print(1)\npri"))
    }

    @Test func hugeCodeBlock() {
        let body = (0..<100_000).map { "line \($0)" }.joined(separator: "\n")
        let blocks = MarkdownParser.parse("```\n" + body + "\n```")
        #expect(blocks == [.code(language: nil, text: body)])
    }

    @Test func marksLeftOutOfShortTexts() {
        #expect(MarkdownMarks.removed(from: "Your **résumé** is in `~/Documents`.") == "Your résumé is in ~/Documents.")
        #expect(MarkdownMarks.removed(from: "## Deploy\n> __quoted__ ~~old~~ text") == "Deploy\nquoted old text")
        // Plain text keeps what only looks like a mark.
        #expect(MarkdownMarks.removed(from: "2 * 3 = 6\n- item\n#hashtag") == "2 * 3 = 6\n- item\n#hashtag")
        // A piece of a line keeps what only starts a line as a mark.
        #expect(MarkdownMarks.inlineRemoved(from: " > 5 `ms`") == " > 5 ms")
        #expect(MarkdownMarks.inlineRemoved(from: "a *b* ***c*** ~~é~~ __ü__") == "a *b* *c* é ü")
    }
}
