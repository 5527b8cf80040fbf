import Foundation
import ToolSupport

/// A loopback listener whose accept loop runs on a thread of its own, handing each connection to
/// `serve`. Only that thread closes the listening socket, after `stop` has shut it down (which wakes
/// a waiting accept and fails every later one). The test servers used to close it in `stop`, which
/// raced the loop: the number could be handed to another test's new socket before the loop's next
/// accept, which then took that test's connections (a CI run saw a probe answered by the server of
/// the test before it).
final class AcceptLoop: Sendable {
    let port: Int
    private let listener: Int32

    init(host: String = "127.0.0.1", backlog: Int32 = 16, serve: @escaping @Sendable (Int32) -> Void) throws {
        guard let (listener, port) = Loopback.bind(host: host) else { throw POSIXError(.EADDRINUSE) }
        guard listen(listener, backlog) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        (self.listener, self.port) = (listener, port)
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client >= 0 { serve(client); continue }
                if errno == EINTR || errno == ECONNABORTED { continue }
                close(listener)  // shut down by `stop`
                return
            }
        }
    }

    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }
}
