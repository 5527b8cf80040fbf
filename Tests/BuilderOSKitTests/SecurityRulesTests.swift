import Foundation
import Testing

@testable import BuilderOSKit

/// The rules behind the hostile-server promises, without a socket: how server text is made visible, what a key
/// may be, how often a message is sent, and what a 3xx becomes.
struct VisibleTextTests {
    @Test func controlsBecomeVisibleEscapes() {
        #expect(VisibleText.escapingControls("a\u{1B}]52;c;eA==\u{07}b") == #"a\u{1B}]52;c;eA==\u{07}b"#)
        #expect(VisibleText.escapingControls("\u{9B}2J") == #"\u{9B}2J"#)
        #expect(VisibleText.escapingControls("x\u{0}y\u{7F}") == #"x\u{00}y\u{7F}"#)
        #expect(VisibleText.escapingControls("abc\u{202E}fed") == #"abc\u{202E}fed"#)
        // Lines, tabs and ordinary text (accents, emoji, CJK) stay as they are; CRLF becomes LF, a lone CR shows.
        #expect(VisibleText.escapingControls("a\tb\nc é 🙂 漢字") == "a\tb\nc é 🙂 漢字")
        #expect(VisibleText.escapingControls("one\r\ntwo\rthree") == #"one\#ntwo\u{0D}three"#)
    }

    @Test func oneLineIsFlatAndBounded() {
        #expect(VisibleText.oneLine("  a\nb\t\u{1B}[2J  ") == #"a b \u{1B}[2J"#)
        #expect(VisibleText.oneLine(String(repeating: "x", count: 400)).count == 301)
    }

    @Test func jsonEscapesWhatJSONSerializationLeavesRaw() throws {
        let object = ["v": "a\u{9B}2J\u{7F}\u{202E}\u{1B}"]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let escaped = VisibleText.escapingControlsInJSON(json)
        #expect(!escaped.unicodeScalars.contains { VisibleText.needsEscape($0) })
        #expect(escaped.contains(#"\u009b2J\u007f\u202e"#))
        let back = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(back == object)
    }
}

struct APIKeyTests {
    @Test func validKeysAreTrimmedAndAByteOrderMarkDropped() throws {
        #expect(try APIKey.validated("  abcdefgh-1234\n") == "abcdefgh-1234")
        #expect(try APIKey.validated("\u{FEFF}abcdefgh-1234\r\n") == "abcdefgh-1234")
        #expect(try APIKey.validated("Ab1!$%&/()=?+*#~.:,;_-") == "Ab1!$%&/()=?+*#~.:,;_-")
    }

    @Test(arguments: [
        ("", APIKeyProblem.empty), (" \n ", .empty),
        ("abcdefgh\r\nX-Injected: yes", .containsControlCharacter), ("abcd\u{0}efghij", .containsControlCharacter),
        ("abcd efghij", .containsSpace), ("schlüssel-123", .nonASCII), ("abcd\u{FFFD}efgh", .notText),
        ("short", .tooShort), (String(repeating: "k", count: 513), .tooLong),
    ])
    func refused(input: String, problem: APIKeyProblem) {
        #expect(throws: problem) { try APIKey.validated(input) }
        #expect(problem.message.hasSuffix(".") && problem.message.count > 15)
    }

    /// The check on the way out: whatever is stored, a key that would break a header is never sent.
    @Test func problemSending() {
        #expect(APIKey.problemSending("k") == nil)
        #expect(APIKey.problemSending("a\r\nb") == .containsControlCharacter)
        #expect(APIKey.problemSending("") == .empty)
    }

    @Test func theWizardRefusesWhatCannotBeAKey() {
        var flow = SetupFlow(step: .apiKey, serverText: "https://example.com")
        flow.keyText = "abcdefgh\nX-Injected: yes"
        #expect(!flow.canContinue)
        #expect(flow.keyValidation == .failure(.containsControlCharacter))
        flow.keyText = " abcdefgh-1234 "
        #expect(flow.canContinue)
        flow.advance()
        #expect(flow.step == .test && flow.keyText == "abcdefgh-1234")
    }
}

struct DeliveryLimitTests {
    let message = OutgoingChatMessage(content: "hi", sessionId: "s", deviceId: "d", agent: .jarvis)

    @Test func aMessageDroppedOnEverySendStopsAfterTheLimit() {
        var turn = ChatTurn(message: message)
        for attempt in 1...ChatTurn.maxDeliveries {
            #expect(turn.phase == .queued)
            turn.markSent()
            let again = turn.connectionDropped()
            #expect(again == (attempt < ChatTurn.maxDeliveries))
        }
        #expect(turn.phase == .notDelivered(attempts: ChatTurn.maxDeliveries))
        #expect(turn.isFinished)
        turn.markSent()
        #expect(turn.sendCount == ChatTurn.maxDeliveries, "a finished turn is not sent again")
    }
}

struct RedirectMappingTests {
    @Test func aRedirectNamesWhereItPointedEscaped() {
        let response = HTTPResponse(
            status: 301, contentType: "text/html", body: Data("<html>".utf8), totalTime: 0,
            location: "https://new.example.com/\u{1B}[2Japi/status")
        let error = HTTPStatusMapping.error(for: response)
        #expect(error == .redirected(status: 301, location: #"https://new.example.com/\u{1B}[2Japi/status"#))
        #expect(error?.userMessage.contains("does not follow redirects") == true)
        #expect(error?.fixIt?.contains("new address") == true)
        #expect(error?.isTransient == false)
        let nowhere = HTTPStatusMapping.error(for: HTTPResponse(status: 302, contentType: nil, body: Data(), totalTime: 0))
        #expect(nowhere == .redirected(status: 302, location: nil))
    }

    @Test func serverErrorTextsAreEscaped() {
        let body = Data(#"{"error":"bad\u001b]0;x\u0007"}"#.utf8)
        let error = HTTPStatusMapping.error(for: HTTPResponse(status: 500, contentType: "application/json", body: body, totalTime: 0))
        #expect(error == .serverError(status: 500, message: #"bad\u{1B}]0;x\u{07}"#))
    }
}
