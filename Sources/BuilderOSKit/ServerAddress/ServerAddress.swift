import CGio
import Foundation

/// A validated, normalised server base URL (`https://host[:port][/base]`, no trailing `/`).
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable { case http, https }

    /// How the connection is protected, which decides whether the user must confirm it.
    public enum Transport: Sendable, Equatable {
        /// HTTPS: fine everywhere.
        case encrypted
        /// Plain HTTP to this computer: fine, accepted silently.
        case loopback
        /// Plain HTTP to a private or VPN address: accepted, with a warning.
        case privateNetwork
        /// Plain HTTP to anywhere else: only after explicit confirmation.
        case publicNetwork
    }

    public let scheme: Scheme
    /// Host as written in URLs (IPv6 in brackets), lower-cased.
    public let host: String
    public let port: Int?
    /// Base path without trailing `/` ("" for none).
    public let basePath: String

    public var description: String { baseURL }

    public var baseURL: String {
        "\(scheme.rawValue)://\(host)\(port.map { ":\($0)" } ?? "")\(basePath)"
    }

    /// The host as people read it: an internationalised name (`xn--…` labels) decoded, or nil for a plain one.
    public var unicodeHost: String? {
        guard host.split(separator: ".").contains(where: { $0.hasPrefix("xn--") }),
            let decoded = g_hostname_to_unicode(host)
        else { return nil }
        defer { g_free(decoded) }
        let text = String(cString: decoded)
        return text == host ? nil : text
    }

    /// The host as shown anywhere a person reads it: an internationalised one decoded with its ASCII form beside
    /// it (`bücher.example (xn--bcher-kva.example)`), so a name written in look-alike letters of another script
    /// cannot pass for the one it imitates.
    public var displayHost: String { unicodeHost.map { "\($0) (\(host))" } ?? host }

    /// The address as shown anywhere a person reads it: `baseURL`, with the host's ASCII form after it where the
    /// host is internationalised (`https://bücher.example (xn--bcher-kva.example)`).
    public var displayURL: String {
        guard let unicodeHost else { return baseURL }
        return "\(scheme.rawValue)://\(unicodeHost)\(port.map { ":\($0)" } ?? "")\(basePath) (\(host))"
    }

    /// A REST URL: base + path.
    public func url(path: String) -> String { baseURL + path }

    /// A WebSocket URL: `https://` becomes `wss://`, `http://` becomes `ws://`.
    public func webSocketURL(path: String) -> String {
        (scheme == .https ? "wss://" : "ws://") + String(url(path: path).drop(while: { $0 != ":" }).dropFirst(3))
    }

    public var transport: Transport {
        if scheme == .https { return .encrypted }
        switch NetworkRange.classify(host: host) {
        case .loopback: return .loopback
        case .privateNetwork: return .privateNetwork
        case .publicNetwork: return .publicNetwork
        }
    }

    /// The server runs on this computer (reachable without any network).
    public var isOnThisComputer: Bool { NetworkRange.classify(host: host) == .loopback }

    /// Plain HTTP outside loopback and private ranges: the UI must ask before using it.
    public var requiresConfirmation: Bool { transport == .publicNetwork }

    /// A sentence to show beside the address, or nil when there is nothing to say.
    public var transportWarning: String? {
        switch transport {
        case .encrypted, .loopback: return nil
        case .privateNetwork:
            return L("This connection is not encrypted. That is usual on a home network or VPN, but anyone on that network could read your messages.")
        case .publicNetwork:
            return L(
                "This connection is not encrypted and goes over the internet: anyone on the way could read your API key and messages. Use an https:// address if you can."
            )
        }
    }

    /// Normalises and validates what the user typed or pasted.
    public static func parse(_ input: String) throws(ServerAddressProblem) -> ServerAddress {
        try ServerAddressParser.parse(input)
    }

    init(scheme: Scheme, host: String, port: Int?, basePath: String) {
        (self.scheme, self.host, self.port, self.basePath) = (scheme, host, port, basePath)
    }
}

/// Why a server address was refused. `message` is the translated sentence for the user.
public enum ServerAddressProblem: Error, Sendable, Equatable {
    case empty
    case containsSpaces
    case unsupportedScheme(String)
    case containsUserInfo
    case containsFragment
    case containsQuery
    case missingHost
    case invalidHost
    case invalidPort
    case containsControlCharacters
    case tooLong

    public var message: String {
        switch self {
        case .empty: return L("Enter the address of your BuilderOS server.")
        case .containsSpaces: return L("A server address cannot contain spaces.")
        case .unsupportedScheme(let s):
            return L("“%@” addresses are not supported. Use an address starting with https:// or http://.", s)
        case .containsUserInfo: return L("Remove the user name or password from the address: BuilderOS uses its API key instead.")
        case .containsFragment: return L("Remove the part after “#” from the address.")
        case .containsQuery: return L("Remove the part after “?” from the address.")
        case .missingHost: return L("The address has no server name.")
        case .invalidHost: return L("The server name contains characters that are not allowed.")
        case .invalidPort: return L("The port must be a number from 1 to 65535.")
        case .containsControlCharacters:
            return L("The address contains control characters (such as an escape or a line break). Type or paste only the address.")
        case .tooLong:
            return L("The address is too long: a server address has at most %d characters.", String(ServerAddressParser.maximumLength))
        }
    }
}
