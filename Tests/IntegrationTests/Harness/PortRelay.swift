import Foundation
import Synchronization
import ToolSupport

/// FAKE network hop: a loopback TCP relay that keeps one address for the client while the real server behind it
/// stops and starts again on another port. Restarting a server on its own port failed now and then in full runs
/// ("Address already in use" for 20 s while the stopped server's listener lingered); with the relay nothing is
/// bound twice. While no server is behind it, the relay refuses the way a stopped server does: it accepts and
/// closes at once (the client sees the connection fail and retries with its backoff).
final class PortRelay: @unchecked Sendable {
    var port: Int { loop.port }
    /// Set once in `init` (its connections go where this object's target says).
    private var loop: AcceptLoop!
    private let target = Mutex<Int?>(nil)

    init(to backend: Int?) throws {
        target.withLock { $0 = backend }
        loop = try AcceptLoop(backlog: 64) { [self] client in
            guard let backend = target.withLock({ $0 }) else { close(client); return }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Loopback.address(port: backend)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(client); close(upstream); return }
            let pair = SocketPair(client, upstream)
            Self.pump(from: client, to: upstream, pair)
            Self.pump(from: upstream, to: client, pair)
        }
    }

    /// The server's port behind the relay, or nil while it is down.
    func route(to backend: Int?) { target.withLock { $0 = backend } }

    var url: String { "http://127.0.0.1:\(port)" }

    /// Copies one direction until it ends, then ends the other direction too; the second to finish closes both.
    private static func pump(from source: Int32, to destination: Int32, _ pair: SocketPair) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(source, &buffer, buffer.count)
                guard count > 0, write(destination, buffer, count) == count else { break }
            }
            shutdown(destination, Int32(SHUT_RDWR))
            shutdown(source, Int32(SHUT_RDWR))
            pair.finishOne()
        }
    }

    private final class SocketPair: Sendable {
        let sockets: (Int32, Int32)
        let finished = Mutex(0)
        init(_ a: Int32, _ b: Int32) { sockets = (a, b) }
        func finishOne() {
            guard
                finished.withLock({
                    $0 += 1; return $0
                }) == 2
            else { return }
            close(sockets.0)
            close(sockets.1)
        }
    }

    func stop() { loop.stop() }
}
