import Foundation

/// What answers on one port of the preview host.
public enum ProbeResult: Sendable, Equatable {
    /// Not asked yet (or asking now).
    case checking
    /// An HTTP server answered: its status, the page's title if it sent HTML with one, and where a
    /// redirect points (never followed).
    case up(status: Int, title: String?, redirect: String?)
    /// The host refused the connection: no server on that port.
    case nothingListening
    /// No answer within the probe's time: a firewall, a silent server or a host that is down.
    case noAnswer
    /// The host name could not be found.
    case hostNotFound
    /// Something answered, but not HTTP (or the connection broke).
    case notHTTP

    public var isUp: Bool {
        if case .up = self { return true }
        return false
    }

    /// The card's status line: "Up · 200 · My App", "Nothing listening", "No answer".
    public var summary: String {
        switch self {
        case .checking: return L("Checking…")
        case .up(let status, let title, let redirect):
            var parts = [L("Up"), String(status)]
            if let redirect { parts.append(L("redirects to %@", redirect)) } else if let title { parts.append(title) }
            return parts.joined(separator: " · ")
        case .nothingListening: return L("Nothing listening")
        case .noAnswer: return L("No answer")
        case .hostNotFound: return L("Host not found")
        case .notHTTP: return L("Not a web server")
        }
    }
}

/// Asks one port whether a web server answers there. A protocol so the page's logic is tested with fakes.
public protocol PortProbing: Sendable {
    func probe(host: String, port: Int) async -> ProbeResult
}

extension PortProbing {
    /// Every port at once; the results come back by port.
    public func probeAll(host: String, ports: [Int]) async -> [Int: ProbeResult] {
        await withTaskGroup(of: (Int, ProbeResult).self) { group in
            for port in ports { group.addTask { (port, await self.probe(host: host, port: port)) } }
            var results: [Int: ProbeResult] = [:]
            for await (port, result) in group { results[port] = result }
            return results
        }
    }
}

/// The real probe: one `GET /` over libcurl with a short timeout, no credentials of any kind,
/// redirects reported but not followed, and only the first 64 KB read (enough for a title).
public struct PortProbe: PortProbing {
    public let timeout: Double

    public init(timeout: Double = 2) { self.timeout = timeout }

    public func probe(host: String, port: Int) async -> ProbeResult {
        let request = HTTPRequest(
            method: .get, url: PreviewHost.url(host: host, port: port),
            headers: [("Accept", "text/html,*/*;q=0.5")],
            connectTimeout: timeout, totalTimeout: timeout * 1.5,
            maxResponseBytes: 64 * 1024, keepsTruncatedBody: true)
        do {
            guard let engine = CurlEngine.shared else { throw CurlEngine.unavailable }
            let response = try await engine.perform(request)
            let isHTML = response.contentType?.lowercased().contains("html") ?? true
            let redirect = (300..<400).contains(response.status) ? response.location.map { Self.shortened($0, host: host, port: port) } : nil
            return .up(status: response.status, title: isHTML ? HTMLTitle.extract(from: response.body) : nil, redirect: redirect)
        } catch let error as BuilderOSError {
            switch error {
            case .connectionRefused: return .nothingListening
            case .timedOut: return .noAnswer
            case .hostNotFound: return .hostNotFound
            default: return .notHTTP
            }
        } catch {
            return .noAnswer
        }
    }

    /// A redirect on the same host and port shows as its path ("/login"); others in full.
    static func shortened(_ location: String, host: String, port: Int) -> String {
        let prefix = "http://\(host):\(port)"
        if location.lowercased().hasPrefix(prefix.lowercased()) {
            let rest = String(location.dropFirst(prefix.count))
            return rest.isEmpty ? "/" : rest
        }
        return location
    }
}
