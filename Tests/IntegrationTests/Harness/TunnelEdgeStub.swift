import Foundation
import ToolSupport

/// FAKE: stands in for a tunnel edge (e.g. Cloudflare) whose origin is down, which cannot run
/// here. It answers every request, WebSocket upgrades included, with `status` and an HTML page.
final class TunnelEdgeStub: @unchecked Sendable {
    let port: Int
    private let loop: AcceptLoop

    init(status: Int) throws {
        let page = "<!DOCTYPE html><html><head><title>\(status): Bad gateway</title></head><body>origin unreachable</body></html>"
        let response =
            "HTTP/1.1 \(status) Bad Gateway\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n\(page)"
        loop = try AcceptLoop { client in
            var buffer = [UInt8](repeating: 0, count: 8192)
            _ = read(client, &buffer, buffer.count)
            _ = response.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
        port = loop.port
    }

    func stop() { loop.stop() }
}
