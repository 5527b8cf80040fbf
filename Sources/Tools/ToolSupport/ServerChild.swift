import Foundation

/// builderos-server as a child process that can be killed like a crash and started again on
/// the same port.
public final class ServerChild {
    public let process = Process()
    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)" }
    private let output: FileHandle
    /// What came after the URL line in the same read.
    private var unread: String

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
        let text = String(decoding: buffer, as: UTF8.self)
        let line = text.prefix { $0 != "\n" }
        guard let colon = line.range(of: ":", options: .backwards),
            let p = Int(line[colon.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw POSIXError(.ECONNREFUSED) }
        self.port = p
        output = pipe.fileHandleForReading
        unread = String(text.dropFirst(line.count + 1))
    }

    /// What the server has printed since its URL line, read without waiting for more.
    public func printedSinceStart() -> String {
        let fd = output.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bytes = [UInt8](repeating: 0, count: 4096)
        var data = Data()
        while true {
            let n = read(fd, &bytes, bytes.count)
            if n <= 0 { break }
            data.append(contentsOf: bytes[0..<n])
        }
        unread += String(decoding: data, as: UTF8.self)
        return unread
    }

    public func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
