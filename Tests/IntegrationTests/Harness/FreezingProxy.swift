import Foundation
import Synchronization
import ToolSupport

/// FAKE: a peer that goes silent mid-connection (a stuck server, or a tunnel whose far side has gone), which the real
/// server cannot be made to do. A loopback proxy to `port` that forwards the client's bytes and only the server's
/// first answer (for a WebSocket, the 101 upgrade), then swallows everything the server sends, keeping both
/// connections open.
final class FreezingProxy: @unchecked Sendable {
    let port: Int
    private let loop: AcceptLoop
    /// Every socket it opened, closed by `stop` (a frozen connection left open would hold the
    /// server's graceful shutdown for ever).
    private let sockets = OpenSockets()

    final class OpenSockets: Sendable {
        private let fds = Mutex<[Int32]>([])
        func add(_ new: Int32...) { fds.withLock { $0 += new } }
        var all: [Int32] { fds.withLock { $0 } }
    }

    init(to target: Int) throws {
        loop = try AcceptLoop { [sockets] client in
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Loopback.address(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(client); close(upstream); return }
            // Noted only once open for good: `stop` must not shut down a number closed here and reused.
            sockets.add(client, upstream)
            Self.pump(from: client, to: upstream, forwarding: .max)
            Self.pump(from: upstream, to: client, forwarding: 1)
        }
        port = loop.port
    }

    /// Copies reads from one socket to the other; after `forwarding` reads, keeps reading and drops what comes.
    private static func pump(from source: Int32, to destination: Int32, forwarding: Int) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var reads = 0
            while true {
                let count = read(source, &buffer, buffer.count)
                guard count > 0 else { return }
                reads += 1
                if reads <= forwarding { _ = write(destination, buffer, count) }
            }
        }
    }

    func stop() {
        loop.stop()
        // shutdown() wakes the pumps' reads; each pump thread then returns.
        for socket in sockets.all { shutdown(socket, Int32(SHUT_RDWR)) }
    }
}
