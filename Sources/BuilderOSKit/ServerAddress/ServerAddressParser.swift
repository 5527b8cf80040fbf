import CGio
import Foundation

/// The rules behind `ServerAddress.parse`, kept apart so each step reads on its own.
enum ServerAddressParser {
    /// Paths users paste from API docs or a browser (`…/api/status`): the base is what precedes them.
    static let apiPathMarker = "/api"
    /// Longer than any real server address; a longer one is a paste gone wrong, and would be stored in settings.
    static let maximumLength = 2048

    /// Without the white space around it (Unicode's, as `.whitespacesAndNewlines`), without Foundation:
    /// every start parses the saved address, and NSString's trimming was most of that.
    static func trimmed(_ input: String) -> String {
        let scalars = input.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }

    static func parse(_ input: String) throws(ServerAddressProblem) -> ServerAddress {
        var text = trimmed(input)
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= maximumLength else { throw .tooLong }
        guard !text.contains(where: { $0.isWhitespace }) else { throw .containsSpaces }
        // Control characters (an escape sequence, a NUL) and bidi overrides have no place in an address,
        // and would act on a terminal that shows it.
        guard !text.unicodeScalars.contains(where: VisibleText.needsEscape) else { throw .containsControlCharacters }

        // Scheme: none means https; ws/wss are mapped to what a user meant.
        var scheme = ServerAddress.Scheme.https
        if let range = text.range(of: "://") {
            let given = text[..<range.lowerBound].lowercased()
            switch given {
            case "https", "wss": scheme = .https
            case "http", "ws": scheme = .http
            default: throw .unsupportedScheme(String(given))
            }
            text = String(text[range.upperBound...])
        } else if text.contains(":"), let colon = text.firstIndex(of: ":"),
            !text[text.index(after: colon)...].allSatisfy({ $0.isNumber || $0 == "/" }), !text.hasPrefix("[")
        {
            // "mailto:x" or "ftp:host": a scheme without "//".
            throw .unsupportedScheme(String(text[..<colon]).lowercased())
        }

        if text.contains("#") { throw .containsFragment }
        if text.contains("?") { throw .containsQuery }

        let authorityEnd = text.firstIndex(of: "/") ?? text.endIndex
        let authority = String(text[..<authorityEnd])
        var path = String(text[authorityEnd...])
        if authority.contains("@") { throw .containsUserInfo }

        let (host, port) = try splitHostPort(authority)
        path = normalisedBasePath(path)
        return ServerAddress(scheme: scheme, host: host, port: port, basePath: path)
    }

    static func splitHostPort(_ authority: String) throws(ServerAddressProblem) -> (String, Int?) {
        guard !authority.isEmpty else { throw .missingHost }
        var host: String
        var portText: String?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidHost }
            host = String(authority[...close])
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .invalidHost }
                portText = String(rest.dropFirst())
            }
            let inner = host.dropFirst().dropLast()
            guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { throw .invalidHost }
        } else {
            let pieces = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw .invalidHost }
            host = try asciiHost(String(pieces[0]))
            if pieces.count == 2 { portText = String(pieces[1]) }
            guard !host.isEmpty else { throw .missingHost }
            let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
            guard host.unicodeScalars.allSatisfy(allowed.contains), !host.hasPrefix("."), !host.hasPrefix("-"),
                !host.contains("..")
            else { throw .invalidHost }
            if host.hasSuffix(".") { host.removeLast() }
        }
        var port: Int?
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value), portText.allSatisfy(\.isNumber) else { throw .invalidPort }
            port = value
        }
        return (host.lowercased(), port)
    }

    /// An internationalised name (`bücher.example`) in the ASCII form DNS and TLS use (`xn--bcher-kva.example`);
    /// ASCII names as they are. `ServerAddress.displayURL` shows both forms, so a look-alike cannot hide.
    static func asciiHost(_ host: String) throws(ServerAddressProblem) -> String {
        guard host.unicodeScalars.contains(where: { !$0.isASCII }) else { return host }
        guard let ascii = g_hostname_to_ascii(host) else { throw .invalidHost }
        defer { g_free(ascii) }
        return String(cString: ascii)
    }

    /// Drops trailing `/`, and anything from `/api` on (a pasted route), keeping a real base path.
    static func normalisedBasePath(_ path: String) -> String {
        var result = path
        if let marker = result.range(of: apiPathMarker),
            result[marker.upperBound...].isEmpty || result[marker.upperBound...].hasPrefix("/")
        {
            result = String(result[..<marker.lowerBound])
        }
        while result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
