import Foundation

/// builderos-server as a child process that can be killed like a crash and started again on
/// the same port.
final class ServerChild {
    let process = Process()
    let port: Int

    init(binary: String, port: Int, keyFile: String, log: String?, extra: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", String(port), "--key-file", keyFile, "--chunk-delay-ms", "5"]
            + (log.map { ["--message-log", $0] } ?? []) + extra
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self)
        guard let colon = line.range(of: ":", options: .backwards), let p = Int(line[colon.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw POSIXError(.ECONNREFUSED) }
        self.port = p
    }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The reference server's fault switches, set over its test-control route.
enum Controls {
    static func put(port: Int, _ json: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-X", "PUT", "-H", "Content-Type: application/json", "--data", json,
                             "http://127.0.0.1:\(port)/__reference/faults"]
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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0
        guard ok, listen(fd, 16) == 0 else { Glibc.close(fd); return nil }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(fd) }
}

enum Grep {
    /// Files under `roots` whose bytes contain `needle`.
    static func files(containing needle: String, under roots: [String]) -> [String] {
        var hits: [String] = []
        let bytes = Data(needle.utf8)
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker {
                let path = (root as NSString).appendingPathComponent(relative)
                guard let data = FileManager.default.contents(atPath: path), data.count < 64 << 20 else { continue }
                if data.range(of: bytes) != nil { hits.append(path) }
            }
        }
        return hits
    }
}
