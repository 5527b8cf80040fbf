import Foundation
import Testing

@testable import BuilderOSKit

/// Every failure ends as one clear sentence, and HTTP answers map to the right failure.
struct ErrorMappingTests {
    func response(_ status: Int, _ body: String, type: String? = "application/json") -> HTTPResponse {
        HTTPResponse(status: status, contentType: type, body: Data(body.utf8), totalTime: 0)
    }

    @Test func statusCodes() {
        #expect(HTTPStatusMapping.error(for: response(200, "{}")) == nil)
        #expect(HTTPStatusMapping.error(for: response(401, #"{"error":"Unauthorized"}"#)) == .unauthorized)
        #expect(HTTPStatusMapping.error(for: response(401, #"{"error":"Invalid API key"}"#)) == .unauthorized)
        #expect(HTTPStatusMapping.error(for: response(404, #"{"detail":"Not Found"}"#)) == .notAvailableOnServer)
        #expect(HTTPStatusMapping.error(for: response(413, #"{"error":"too big"}"#)) == .payloadTooLarge)
        #expect(HTTPStatusMapping.error(for: response(500, #"{"error":"boom"}"#)) == .serverError(status: 500, message: "boom"))
        #expect(HTTPStatusMapping.error(for: response(400, #"{"ok":false,"error":"bad type"}"#)) == .serverError(status: 400, message: "bad type"))
        #expect(HTTPStatusMapping.error(for: response(503, "")) == .serverError(status: 503, message: nil))
    }

    @Test(arguments: [502, 503, 504, 520, 530])
    func tunnelHTMLPages(status: Int) {
        let page = "<!DOCTYPE html><html><head><title>Bad gateway</title></head><body>cloudflare</body></html>"
        #expect(HTTPStatusMapping.error(for: response(status, page, type: "text/html; charset=UTF-8")) == .tunnelError(status: status))
        // Recognised by its body even without a content type.
        #expect(HTTPStatusMapping.error(for: response(status, "\n  " + page, type: nil)) == .tunnelError(status: status))
    }

    @Test func malformedSuccessBodies() {
        #expect(throws: BuilderOSError.malformedResponse) { try HTTPStatusMapping.decode(StatusReply.self, from: response(200, "{not json")) }
        #expect(throws: BuilderOSError.malformedResponse) {
            try HTTPStatusMapping.decode(StatusReply.self, from: response(200, "<html>login</html>", type: "text/html"))
        }
        #expect(throws: BuilderOSError.malformedResponse) { try HTTPStatusMapping.decode(CapsuleList.self, from: response(200, #"{"count":1}"#)) }
    }

    @Test func serverMessagesAreFlattenedAndBounded() {
        let long = String(repeating: "x", count: 1000)
        guard case .serverError(_, let message)? = HTTPStatusMapping.error(for: response(500, #"{"error":"line1\n\#(long)"}"#)) else {
            Issue.record("expected a server error"); return
        }
        #expect(message?.contains("\n") == false)
        #expect((message?.count ?? 0) <= 301)
    }

    static let everyError: [BuilderOSError] = [
        .invalidServerAddress(.invalidPort), .hostNotFound(host: "x.example"), .connectionRefused, .networkUnreachable,
        .tlsFailure(.unknown), .tlsFailure(.selfSigned), .tlsFailure(.untrustedIssuer), .tlsFailure(.otherName(host: "a", certificateNames: [])),
        .tlsFailure(.otherName(host: "a", certificateNames: ["b"])), .tlsFailure(.expired), .tlsFailure(.notYetValid), .timedOut, .connectionLost,
        .cancelled, .unauthorized, .notAvailableOnServer, .payloadTooLarge,
        .serverError(status: 500, message: "m"), .serverError(status: 500, message: nil), .tunnelError(status: 502),
        .malformedResponse, .responseTooLarge, .fileTooLarge(bytes: 60_000_000), .fileUnreadable(path: "/x"),
        .serverRefused(message: "No."), .secretServiceUnavailable, .keyringLocked, .notSignedIn, .other(detail: "d"),
        .redirected(status: 301, location: "https://new.example.com/api/status"), .redirected(status: 302, location: nil),
        .replyTooLarge(limitBytes: 16 << 20), .closedOnMessage(attempts: 3), .replyDeadlinePassed(seconds: 300),
        .replyDeadlinePassed(seconds: 5), .invalidAPIKey(.containsControlCharacter),
    ]

    @Test(arguments: everyError)
    func everyErrorHasOneClearSentence(error: BuilderOSError) {
        let text = error.userMessage
        #expect(!text.isEmpty)
        #expect(text.first?.isUppercase == true, "\(text)")
        #expect(text.hasSuffix(".") || text.hasSuffix("m") || text.hasSuffix("d"), "\(text)")
        #expect(!text.contains("\n"))
        if let fix = error.fixIt { #expect(fix.hasSuffix(".") || fix.hasSuffix(")")) }
    }

    @Test func theWordsTheCLIPromises() {
        #expect(BuilderOSError.unauthorized.userMessage == "The server rejected the API key.")
        #expect(BuilderOSError.notAvailableOnServer.userMessage == "This feature is not available on this server.")
        #expect(BuilderOSError.tunnelError(status: 530).userMessage.contains("530"))
        #expect(BuilderOSError.hostNotFound(host: "nope.example").userMessage.contains("nope.example"))
    }

    @Test func failuresFromTheKeyringAreDistinct() {
        #expect(BuilderOSError.secretServiceUnavailable.fixIt?.contains("gnome-keyring") == true)
        #expect(BuilderOSError.keyringLocked.fixIt?.localizedCaseInsensitiveContains("unlock") == true)
        #expect(BuilderOSError.secretServiceUnavailable.userMessage != BuilderOSError.keyringLocked.userMessage)
    }

    @Test func onlyTransportErrorsAndGatewayStatusesAreTransient() {
        let transient: [BuilderOSError] = [
            .connectionRefused, .networkUnreachable, .timedOut, .connectionLost,
            .tunnelError(status: 502), .serverError(status: 503, message: nil), .tunnelError(status: 504),
        ]
        let final: [BuilderOSError] = [
            .unauthorized, .notAvailableOnServer, .payloadTooLarge, .serverError(status: 500, message: nil),
            .tunnelError(status: 530), .malformedResponse, .hostNotFound(host: "x"), .tlsFailure(.unknown), .cancelled,
        ]
        #expect(transient.allSatisfy { $0.isTransient })
        #expect(!final.contains { $0.isTransient })
    }
}
