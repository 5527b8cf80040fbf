import Foundation

/// FAKE: stands in for a tunnel edge (e.g. Cloudflare) whose origin is down, which cannot run
/// here. It answers every request, WebSocket upgrades included, with `status` and an HTML page.
final class TunnelEdgeStub: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(status: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        let page = "<!DOCTYPE html><html><head><title>\(status): Bad gateway</title></head><body>origin unreachable</body></html>"
        let response = "HTTP/1.1 \(status) Bad Gateway\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n\(page)"
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }  // closed by `stop`
                var buffer = [UInt8](repeating: 0, count: 8192)
                _ = read(client, &buffer, buffer.count)
                _ = response.withCString { write(client, $0, strlen($0)) }
                close(client)
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
