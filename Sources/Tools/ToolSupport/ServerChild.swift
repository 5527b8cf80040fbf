import Foundation

/// builderos-server as a child process that can be killed like a crash and started again on
/// the same port.
public final class ServerChild {
    public let process = Process()
    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)" }

    public init(binary: String, port: Int = 0, keyFile: String, log: String? = nil, chunkDelayMilliseconds: Int = 0, extra: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments =
            ["--port", String(port), "--key-file", keyFile, "--chunk-delay-ms", String(chunkDelayMilliseconds)]
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
        guard let colon = line.range(of: ":", options: .backwards),
            let p = Int(line[colon.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw POSIXError(.ECONNREFUSED) }
        self.port = p
    }

    public func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
