import Foundation

/// Which host the Preview page opens dev servers on, decided from the server address and the
/// "Preview host" setting. A tunnel (a public host name) carries only the BuilderOS API, so its
/// other ports are unreachable through it; an IP address, `localhost` or a LAN/VPN name reaches
/// the machine itself.
public enum PreviewHost: Sendable, Equatable {
    /// Open `http://<host>:<port>/` directly. `fromSetting` tells whether the user chose it.
    case direct(host: String, fromSetting: Bool)
    /// The server is reached through a tunnel and no preview host is set.
    case tunnelOnly(serverHost: String)

    public static func resolve(server: ServerAddress, setting: String?) -> PreviewHost {
        if let setting, let host = try? parseSetting(setting) { return .direct(host: host, fromSetting: true) }
        return isDirect(server.host) ? .direct(host: server.host, fromSetting: false) : .tunnelOnly(serverHost: server.displayHost)
    }

    /// An IP address, `localhost`, a single-label LAN name or a LAN/VPN suffix reaches the machine itself.
    static func isDirect(_ host: String) -> Bool {
        let h = host.lowercased()
        if h.hasPrefix("[") || NetworkRange.ipv4(h) != nil { return true }
        if !h.contains(".") { return true }
        let lanSuffixes = [".localhost", ".local", ".lan", ".home.arpa", ".internal", ".ts.net", ".beta.tailscale.net"]
        return lanSuffixes.contains { h.hasSuffix($0) }
    }

    /// The host, as written into a URL.
    public var host: String? {
        if case .direct(let host, _) = self { return host }
        return nil
    }

    /// The address of a dev server on this host (IPv6 already in brackets).
    public static func url(host: String, port: Int) -> String { "http://\(host):\(port)/" }

    /// Why a "Preview host" value was refused; `message` is the translated sentence.
    public enum Problem: Error, Sendable, Equatable {
        case notAHost
        case invalid(String)

        public var message: String {
            switch self {
            case .notAHost:
                return L("Enter only a host name or IP address, such as 100.64.0.5 or my-mac.tailnet.ts.net: no http://, port or path.")
            case .invalid(let reason): return reason
            }
        }
    }

    /// Normalises a "Preview host" value: nil when empty (no override), the host otherwise.
    public static func parseSetting(_ text: String) throws(Problem) -> String? {
        var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { return nil }
        guard !t.contains("://"), !t.contains("/"), !t.contains("?"), !t.contains("#"), !t.contains("@") else { throw .notAHost }
        // A bare IPv6 address gets its brackets; anything else with a colon carries a port.
        if !t.hasPrefix("["), t.filter({ $0 == ":" }).count >= 2 { t = "[\(t)]" }
        let address: ServerAddress
        do { address = try ServerAddress.parse("http://" + t) } catch { throw .invalid(error.message) }
        guard address.port == nil, address.basePath.isEmpty else { throw .notAHost }
        return address.host
    }
}
