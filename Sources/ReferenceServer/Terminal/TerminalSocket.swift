import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// `/api/terminal/ws` as the wire contract has it: the key as the first text frame → `authenticated`
/// (or `error:invalid_api_key`); then binary frames of raw PTY bytes both ways, and
/// `{"type":"resize","rows":R,"cols":C}` as a binary frame. One shell per socket; when the socket
/// closes, everything the shell started ends. Registered only when the server is started with
/// `--enable-terminal`: a server without it answers 404, as real servers without the route do.
enum TerminalSocket {
    static let path = "/api/terminal/ws"

    static func add(to router: Router<BasicWebSocketRequestContext>, state: ServerState) {
        router.ws(RouterPath(path)) { inbound, outbound, _ in
            try await serve(inbound: inbound, outbound: outbound, state: state)
        }
    }

    static func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, state: ServerState) async throws {
        let authenticated = Mutex(false)
        let watchdog = Task {
            try await Task.sleep(for: ChatSocket.keyTimeout)
            if !authenticated.withLock({ $0 }) { try? await outbound.close(.policyViolation, reason: nil) }
        }
        defer { watchdog.cancel() }
        var iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        guard case .text(let key)? = try await iterator.next() else { return }
        guard state.isValid(key: key) else {
            try await outbound.write(.text("error:invalid_api_key"))
            try await outbound.close(.policyViolation, reason: "invalid_api_key")
            return
        }
        authenticated.withLock { $0 = true }
        guard state.openTerminal() else {
            try await outbound.write(.text("error:too_many_terminals"))
            try await outbound.close(.unknown(1013), reason: "too_many_terminals")  // 1013: try again later
            return
        }
        defer { state.closeTerminal() }
        let process: PTYProcess
        do { process = try PTYProcess(rows: 24, cols: 80, command: state.terminalCommand) } catch {
            try await outbound.close(.unexpectedServerError, reason: "no pseudo-terminal")
            return
        }
        defer { process.terminate() }
        try await outbound.write(.text("authenticated"))

        // Output: until the shell's side closes (the user typed `exit`), then a normal close.
        let output = Task {
            await process.readOutput { chunk in
                try? await outbound.write(.binary(ByteBuffer(bytes: chunk)))
            }
            try? await outbound.close(.normalClosure, reason: "shell exited")
        }
        defer { output.cancel() }
        // Input: until the client goes (or answers the close above).
        while let message = try await iterator.next() {
            switch message {
            case .binary(var buffer):
                let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
                if let size = TerminalResize(bytes) { process.resize(rows: size.rows, cols: size.cols) } else { process.write(bytes) }
            case .text(let text):
                process.write(Array(text.utf8))
            }
        }
        process.terminate()
    }
}

/// `{"type":"resize","rows":R,"cols":C}`; nil for anything else (which is input).
struct TerminalResize: Equatable {
    let rows: Int
    let cols: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.first == UInt8(ascii: "{"), bytes.count < 256,
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            object["type"] as? String == "resize",
            let rows = object["rows"] as? Int, let cols = object["cols"] as? Int,
            (1...1000).contains(rows), (1...1000).contains(cols)
        else { return nil }
        (self.rows, self.cols) = (rows, cols)
    }
}
