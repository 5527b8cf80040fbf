import Foundation
import Testing

@testable import BuilderOSKit

/// Bytes from outside that are not what they should be: each becomes a clear error or is
/// ignored, never a crash.
struct BadInputTests {
    static let invalidUTF8: [UInt8] = [0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80]

    @Test func invalidUTF8InAReplyIsAMalformedResponse() {
        var body = Data(#"{"status":"running","version":""#.utf8)
        body.append(contentsOf: Self.invalidUTF8)
        body.append(contentsOf: Array(#""}"#.utf8))
        let response = HTTPResponse(status: 200, contentType: "application/json", body: body, totalTime: 0)
        #expect(throws: BuilderOSError.malformedResponse) { try HTTPStatusMapping.decode(StatusReply.self, from: response) }
        #expect(BuilderOSError.malformedResponse.userMessage == "The server sent a reply this app cannot read.")
    }

    @Test func invalidUTF8InAChatFrameIsIgnoredOrShownReplaced() {
        var frame = Array(#"{"type":"message","content":"ok "#.utf8) + Self.invalidUTF8 + Array(#""}"#.utf8)
        let text = String(decoding: frame, as: UTF8.self)  // what the socket layer hands over
        guard case .chunk(let content) = ChatFrame(text: text) else { Issue.record("not a chunk"); return }
        #expect(content.hasPrefix("ok ") && content.contains("\u{FFFD}"))
        frame = Self.invalidUTF8
        #expect(ChatFrame(text: String(decoding: frame, as: UTF8.self)) == .malformed)
    }

    @Test func invalidUTF8InMarkdownRenders() {
        let text = String(decoding: Array("# Title ".utf8) + Self.invalidUTF8 + Array("\n\n`x`".utf8), as: UTF8.self)
        let blocks = MarkdownParser.parse(text)
        #expect(blocks.count == 2)
        if case .heading(_, let inlines) = blocks[0] { #expect(PangoMarkup.render(inlines).contains("\u{FFFD}")) }
    }

    @Test func oversizedFrameTextAndHugeRepliesStayBounded() {
        // A 10 MB chunk and a 100,000-line code block parse without trouble (the UI tests and
        // ChatClientTests cover them end to end).
        let huge = String(repeating: "x", count: 10_000_000)
        #expect(ChatFrame(text: #"{"type":"message","content":""# + huge + #""}"#) == .chunk(huge))
    }
}
