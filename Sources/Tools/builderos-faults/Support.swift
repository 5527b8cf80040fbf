import Foundation
import ToolSupport

/// The reference server's fault switches, set over its test-control route.
enum Controls {
    static func put(port: Int, _ json: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "-s", "-X", "PUT", "-H", "Content-Type: application/json", "--data", json,
            "http://127.0.0.1:\(port)/__reference/faults",
        ]
        process.standardOutput = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// A TCP port that accepts connections (the kernel completes the handshake) and never reads or
/// answers: a half-open peer.
final class SilentListener {
    let fd: Int32
    let port: Int

    init?() {
        guard let (fd, port) = Loopback.listen() else { return nil }
        (self.fd, self.port) = (fd, port)
    }

    func close() { Glibc.close(fd) }
}
