import Foundation
import Hummingbird

/// Builds JSON responses with snake_case keys, as the wire contract does.
enum JSONResponse {
    static func make(_ object: [String: Any]) -> Response { make(.ok, object) }

    static func make(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        make(status, ["error": message])
    }

    /// The HTML page a tunnel edge answers with when the origin is down.
    static func tunnelPage(status: Int) -> Response {
        let html = """
            <!DOCTYPE html>
            <html><head><title>Error \(status) | Bad gateway</title></head>
            <body><h1>Bad gateway</h1><p>Error code \(status)</p>
            <p>The web server reported a bad gateway error. The origin is unreachable.</p></body></html>
            """
        return Response(
            status: .init(code: status),
            headers: [.contentType: "text/html; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
