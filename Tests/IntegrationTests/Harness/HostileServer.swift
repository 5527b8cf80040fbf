import Foundation
import Synchronization
import ToolSupport

/// A hostile HTTP server on a loopback address, for the security tests: it answers each request with
/// whatever `respond` makes of its request line (redirects, odd statuses), and counts every connection
/// it accepts, so a test can prove that a client never reached it. A real server on a real socket;
/// hostile on purpose, which the reference server is not.
final class HostileServer: @unchecked Sendable {
    let host: String
    var port: Int { loop.port }
    /// Set once in `init` (its connections are logged by this object).
    private var loop: AcceptLoop!
    private let log = Mutex<(connections: Int, requestLines: [String])>((0, []))

    /// `respond` gets the request line (`GET /api/status HTTP/1.1`) and returns a whole HTTP response.
    init(host: String = "127.0.0.1", respond: @escaping @Sendable (String) -> String) throws {
        self.host = host
        loop = try AcceptLoop(host: host) { [self] client in
            log.withLock { $0.connections += 1 }
            var buffer = [UInt8](repeating: 0, count: 16384)
            let count = read(client, &buffer, buffer.count)
            let head = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            let line = String(head.split(separator: "\r\n", maxSplits: 1).first ?? "")
            log.withLock { $0.requestLines.append(line) }
            let response = respond(line)
            _ = response.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
    }

    /// A server that only counts who comes: the place a redirect points to.
    static func thief(host: String = "127.0.0.2") throws -> HostileServer {
        try HostileServer(host: host) { _ in "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" }
    }

    /// A server that answers every request with a redirect to `location`.
    static func redirecting(status: Int = 302, to location: @escaping @Sendable (HostileServer.Path) -> String) throws -> HostileServer {
        try HostileServer { line in
            let path = Path(line)
            return "HTTP/1.1 \(status) Moved\r\nLocation: \(location(path))\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        }
    }

    /// The path of a request line.
    struct Path: Sendable {
        let value: String
        init(_ line: String) {
            let parts = line.split(separator: " ")
            value = parts.count > 1 ? String(parts[1]) : "/"
        }
    }

    var url: String { "http://\(host):\(port)" }
    var connections: Int { log.withLock { $0.connections } }
    var requestLines: [String] { log.withLock { $0.requestLines } }

    func stop() { loop.stop() }
}
