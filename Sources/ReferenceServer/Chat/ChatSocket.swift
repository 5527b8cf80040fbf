import Foundation
import Hummingbird
import HummingbirdWebSocket
import Synchronization

/// The chat WebSocket (`/api/claude/ws`, `/api/codex/ws`), speaking the contract's protocol:
/// key as first text frame → `authenticated` → `ready` → turns of `message` chunks ending in
/// `complete` (or `error`).
enum ChatSocket {
    static let keyTimeout: Duration = .seconds(10)

    static let agents = ["claude", "codex"]
    static let paths = agents.map { "/api/\($0)/ws" }

    static func add(to router: Router<BasicWebSocketRequestContext>, state: ServerState) {
        for agent in agents {
            router.ws("/api/\(agent)/ws") { inbound, outbound, _ in
                try await serve(agent: agent, inbound: inbound, outbound: outbound, state: state)
            }
        }
    }

    static func serve(agent: String, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, state: ServerState) async throws {
        let authenticated = Mutex(false)
        // Real servers wait 10 s for the key, then close without a message.
        let watchdog = Task {
            try await Task.sleep(for: keyTimeout)
            if !authenticated.withLock({ $0 }) { try? await outbound.close(.policyViolation, reason: nil) }
        }
        defer { watchdog.cancel() }

        var readySent = false
        var counted = false
        defer { if counted { state.connectionClosed(agent) } }

        for try await message in inbound.messages(maxSize: 16 << 20) {
            guard case .text(let text) = message else { continue }
            if !authenticated.withLock({ $0 }) {
                guard state.isValid(key: text) else {
                    try await outbound.write(.text("error:invalid_api_key"))
                    try await outbound.close(.policyViolation, reason: "invalid_api_key")
                    return
                }
                authenticated.withLock { $0 = true }
                state.connectionOpened(agent)
                counted = true
                try await outbound.write(.text("authenticated"))
                if !state.faults.lateReady {
                    try await sendReady(agent: agent, outbound: outbound)
                    readySent = true
                }
                continue
            }
            guard let request = ChatRequest(json: text) else {
                // Non-chat JSON such as `{"working_directory": …}` is ignored, as real servers do.
                continue
            }
            if !readySent {
                try await sendReady(agent: agent, outbound: outbound)
                readySent = true
            }
            state.recordMessage(sessionID: request.sessionID, agent: agent, deviceID: request.deviceID, content: request.content)
            if state.takeDropBeforeReply() {
                try await outbound.close(.unexpectedServerError, reason: "dropped before reply (fault switch)")
                return
            }
            let keepOpen = try await streamReply(to: request, agent: agent, outbound: outbound, state: state)
            if !keepOpen { return }
        }
    }

    private static func sendReady(agent: String, outbound: WebSocketOutboundWriter) async throws {
        try await send(
            [
                "type": "ready", "identity": agent == "codex" ? "codex" : "jarvis",
                "working_directory": "/srv/builderos", "features": ["streaming": true],
            ], outbound)
    }

    /// Streams one turn. Returns false when the fault switches dropped the connection.
    private static func streamReply(to request: ChatRequest, agent: String, outbound: WebSocketOutboundWriter, state: ServerState) async throws
        -> Bool
    {
        let faults = state.faults
        if faults.responseDelayMilliseconds > 0 { try await Task.sleep(for: .milliseconds(faults.responseDelayMilliseconds)) }
        if faults.errorFrame {
            try await send(["type": "error", "content": "The assistant backend is unavailable", "timestamp": ServerTimestamp.now()], outbound)
            return true
        }
        if faults.pacedChunksPerSecond > 0 {
            try await streamPaced(rate: faults.pacedChunksPerSecond, seconds: faults.pacedSeconds, faults: faults, outbound: outbound)
            try await send(["type": "complete", "content": "Response complete", "timestamp": ServerTimestamp.now()], outbound)
            return true
        }
        let text =
            faults.errorMessage
            ? "Error: the assistant backend failed to answer"
            : AssistantReply.text(for: request.content, agent: agent)
        let chunks =
            faults.giantChunkBytes > 0
            ? [AssistantReply.giant(bytes: faults.giantChunkBytes)]
            : AssistantReply.chunks(of: text, agent: agent)
        for (index, chunk) in chunks.enumerated() {
            if faults.dropMidStream && index == chunks.count / 2 {
                try await outbound.close(.unexpectedServerError, reason: "dropped (fault switch)")
                return false
            }
            try await send(["type": faults.chunkFrameType, "content": chunk, "timestamp": ServerTimestamp.now()], outbound)
            if faults.chunkDelayMilliseconds > 0 { try await Task.sleep(for: .milliseconds(faults.chunkDelayMilliseconds)) }
        }
        try await send(
            [
                "type": "complete", "content": "Response complete", "timestamp": ServerTimestamp.now(),
                "message_count": state.messageCount(sessionID: request.sessionID),
                "usage": [
                    "input_tokens": request.content.count / 4 + 1, "cached_input_tokens": 0,
                    "output_tokens": text.count / 4 + 1,
                ],
            ], outbound)
        return true
    }

    /// Benchmark stream: `rate` chunks a second, each sent at its due time — numbered words for
    /// `seconds`, or the benchmark document when `pacedDocumentBytes` is set.
    private static func streamPaced(rate: Int, seconds: Int, faults: Faults, outbound: WebSocketOutboundWriter) async throws {
        let document = faults.pacedDocumentBytes > 0 ? BenchmarkDocument.chunks(bytes: faults.pacedDocumentBytes) : nil
        let start = ContinuousClock.now
        for index in 0..<(document?.count ?? rate * seconds) {
            let due = start + .microseconds(Int64(index) * 1_000_000 / Int64(rate))
            if due > ContinuousClock.now + .milliseconds(1) { try await Task.sleep(until: due, clock: .continuous) }
            let word = document?[index] ?? (index % 40 == 39 ? "word\(index)\n\n" : "word\(index) ")
            try await send(["type": faults.chunkFrameType, "content": word], outbound)
        }
        // The benchmark's "end shown after the last chunk" counts from here.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        FileHandle.standardOutput.write(
            Data("paced reply: last chunk sent at \(Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)) ns (CLOCK_MONOTONIC)\n".utf8))
    }

    private static func send(_ object: [String: Any], _ outbound: WebSocketOutboundWriter) async throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
    }
}

/// A user message as the client sends it.
struct ChatRequest {
    var content: String
    var sessionID: String
    var deviceID: String

    init?(json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let content = (object["content"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !content.isEmpty
        else { return nil }
        self.content = content
        self.sessionID = object["session_id"] as? String ?? "anonymous"
        self.deviceID = object["device_id"] as? String ?? "unknown"
    }
}
