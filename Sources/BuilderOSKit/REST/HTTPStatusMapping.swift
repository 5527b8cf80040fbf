import Foundation

/// Turns a non-success HTTP answer into the client's error, telling a tunnel's HTML error page
/// apart from the server's own JSON errors.
enum HTTPStatusMapping {
    static func error(for response: HTTPResponse) -> BuilderOSError? {
        let status = response.status
        guard !(200..<300).contains(status) else { return nil }
        // A tunnel edge answers for a dead origin with an HTML page (502, 503, 530, …).
        if status >= 500, looksLikeHTML(response) { return .tunnelError(status: status) }
        switch status {
        case 300..<400: return .redirected(status: status, location: response.location.map { VisibleText.oneLine($0, limit: 200) })
        case 401, 403: return .unauthorized
        case 404: return .notAvailableOnServer
        case 413: return .payloadTooLarge
        default:
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.text
            return .serverError(status: status, message: message.map(sanitised))
        }
    }

    static func looksLikeHTML(_ response: HTTPResponse) -> Bool {
        if response.contentType?.lowercased().contains("text/html") == true { return true }
        let head = response.body.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 })
        return head.first == UInt8(ascii: "<")
    }

    /// Server-sent text shown to the user: one line, bounded length, controls escaped.
    static func sanitised(_ text: String) -> String { VisibleText.oneLine(text) }

    static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(BuilderOSError) -> T {
        if let error = error(for: response) { throw error }
        if looksLikeHTML(response) { throw .malformedResponse }
        do { return try WireJSON.decoder().decode(T.self, from: response.body) } catch { throw .malformedResponse }
    }
}
