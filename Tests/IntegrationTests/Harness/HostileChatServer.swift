import CGio
import Foundation
import Synchronization
import ToolSupport

/// A hostile chat WebSocket server on loopback: a real RFC 6455 handshake and framing, written by hand
/// so that it can do what a well-behaved library refuses to (a reserved opcode, a reply without end).
/// It accepts any key, answers `authenticated`, and then meets every user message with `behaviour`.
final class HostileChatServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Answers with a frame of reserved opcode 0x3, which the client's socket must reject.
        case reservedOpcode
        /// Streams `message` chunks of `chunkBytes` until the client goes away, one every 20 ms (12 MB/s for 256 KiB):
        /// unpaced, a loopback peer outruns any reader, which no network does — libsoup then reads without
        /// end in one main-loop dispatch and starves every other socket of the process (see the notes).
        case endlessReply(chunkBytes: Int)
    }

    var port: Int { loop.port }
    /// Set once in `init` (its connections are served by this object's methods).
    private var loop: AcceptLoop!
    private let behaviour: Behaviour
    private let log = Mutex<(messages: [String], bytesSent: Int, openSockets: Int)>(([], 0, 0))

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        loop = try AcceptLoop { [self] client in Thread.detachNewThread { [self] in serve(client) } }
    }

    var address: String { "http://127.0.0.1:\(port)" }
    /// The user messages (JSON) received, one per delivery.
    var messages: [String] { log.withLock { $0.messages } }
    var bytesSent: Int { log.withLock { $0.bytesSent } }
    var openSockets: Int { log.withLock { $0.openSockets } }

    func stop() { loop.stop() }

    private func serve(_ socket: Int32) {
        log.withLock { $0.openSockets += 1 }
        defer { close(socket); log.withLock { $0.openSockets -= 1 } }
        guard let request = readHead(socket), let key = header("Sec-WebSocket-Key", in: request) else { return }
        let accept = Self.acceptValue(for: key)
        guard
            send(
                socket,
                Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n".utf8)
            )
        else { return }
        var authenticated = false
        while let (opcode, payload) = readFrame(socket) {
            if opcode == 0x8 { return }
            guard opcode == 0x1 else { continue }
            let text = String(decoding: payload, as: UTF8.self)
            if !authenticated {
                authenticated = true
                guard sendFrame(socket, opcode: 0x1, Array("authenticated".utf8)) else { return }
                continue
            }
            log.withLock { $0.messages.append(text) }
            switch behaviour {
            case .reservedOpcode:
                _ = sendFrame(socket, opcode: 0x3, Array("surprise".utf8))
            case .endlessReply(let size):
                let chunk = Array(#"{"type":"message","content":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: size) + Array(#""}"#.utf8)
                while sendFrame(socket, opcode: 0x1, chunk) { usleep(20_000) }
                return
            }
        }
    }

    // MARK: RFC 6455

    static func acceptValue(for key: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_SHA1, key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", -1)!
        defer { g_free(digest) }
        let hex = Array(String(cString: digest).utf8)
        let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        return Data(bytes).base64EncodedString()
    }

    private func readHead(_ socket: Int32) -> String? {
        var head = [UInt8]()
        var byte: UInt8 = 0
        while read(socket, &byte, 1) == 1 {
            head.append(byte)
            if head.suffix(4) == Array("\r\n\r\n".utf8) { return String(decoding: head, as: UTF8.self) }
        }
        return nil
    }

    private func header(_ name: String, in head: String) -> String? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    private func readExactly(_ socket: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress! + got, count - got) }
            guard n > 0 else { return nil }
            got += n
        }
        return buffer
    }

    /// One client frame (masked, as clients must send), unmasked.
    private func readFrame(_ socket: Int32) -> (UInt8, [UInt8])? {
        guard let head = readExactly(socket, 2) else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 { guard let b = readExactly(socket, 2) else { return nil }; length = Int(b[0]) << 8 | Int(b[1]) }
        if length == 127 { guard let b = readExactly(socket, 8) else { return nil }; length = b.reduce(0) { $0 << 8 | Int($1) } }
        guard let mask = readExactly(socket, 4), let payload = readExactly(socket, length) else { return nil }
        return (head[0] & 0x0F, payload.enumerated().map { $1 ^ mask[$0 % 4] })
    }

    private func sendFrame(_ socket: Int32, opcode: UInt8, _ payload: [UInt8]) -> Bool {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(UInt8(payload.count))
        case ..<65536: frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame.append(127); frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        return send(socket, frame + payload)
    }

    private func send(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
            log.withLock { $0.bytesSent += n }
        }
        return true
    }
}
