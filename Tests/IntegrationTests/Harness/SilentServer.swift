import Foundation

/// FAKE: a server that takes every connection and never answers (a machine whose server has hung), which the real
/// server cannot be made to do for as long as a test needs. `stop` closes what it took.
final class SilentServer: Sendable {
    let port: Int
    private let loop: AcceptLoop
    private let taken: FreezingProxy.OpenSockets

    init() throws {
        let taken = FreezingProxy.OpenSockets()
        loop = try AcceptLoop { taken.add($0) }
        (self.taken, port) = (taken, loop.port)
    }

    func stop() {
        loop.stop()
        for socket in taken.all { close(socket) }
    }
}
