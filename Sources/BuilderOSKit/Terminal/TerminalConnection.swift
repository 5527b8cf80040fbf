import Foundation

/// What a terminal socket reports after it is open.
public enum TerminalEvent: Sendable, Equatable {
    /// Bytes from the remote PTY, as they came (ANSI sequences and all: a terminal shows them).
    case output(Data)
    /// The socket closed. `shellExited` when the server ended it normally (the user typed `exit`).
    case closed(shellExited: Bool)
}

/// One connection to `/api/terminal/ws`: the key as the first text frame, `authenticated` back, then
/// raw PTY bytes both ways and resize frames. Opening it throws the usual errors: a server without
/// the route answers 404 (`notAvailableOnServer`), a wrong key `unauthorized`.
///
/// Flow control: the socket is read at most `receiveWindow` bytes ahead of what the consumer reports
/// with `shown(_:)`, so a flood (`yes`) is held back by TCP at the server instead of piling up here.
/// Every consumer of `events` must report what it has shown, or output stops after the window.
public final class TerminalConnection: Sendable {
    public static let path = "/api/terminal/ws"
    /// Enough for several frames' worth of a fast terminal; small next to a 10,000-line scrollback.
    public static let receiveWindow = 1 << 20
    public let events: AsyncStream<TerminalEvent>
    private let channel: WebSocketChannel

    private init(channel: WebSocketChannel, events: AsyncStream<TerminalEvent>) {
        (self.channel, self.events) = (channel, events)
    }

    public static func open(
        server: ServerAddress, apiKey: String, configuration: ClientConfiguration = .init(),
        authenticationTimeout: Double = 10
    ) async throws(BuilderOSError) -> TerminalConnection {
        if let problem = APIKey.problemSending(apiKey) { throw .invalidAPIKey(problem) }
        let channel = try await WebSocketChannel.connect(
            url: server.webSocketURL(path: path), host: server.host,
            configuration: configuration, pingInterval: 30,
            receiveWindow: receiveWindow)
        channel.send(apiKey)
        let sent = ContinuousClock.now
        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(authenticationTimeout * 1e9))
            channel.abort()
        }
        defer { watchdog.cancel() }
        let frames = FrameReader(channel.events.makeAsyncIterator())
        // The answer to the key comes first; anything else (or nothing, in time) is a failure.
        switch await frames.next() {
        case .text(let answer)? where answer == "authenticated":
            // The answer took room in the receive window, and no consumer will report it shown.
            channel.shown(answer.utf8.count)
        case .text(let text)?:
            channel.close()
            throw text.contains("invalid_api_key")
                ? .unauthorized
                : text.contains("too_many_terminals")
                    ? .serverRefused(message: L("The server has as many terminals open as it allows. Close one and try again."))
                    : .serverRefused(message: text)
        case .closed?, nil:
            throw ContinuousClock.now - sent >= .seconds(authenticationTimeout) ? .timedOut : .connectionLost
        case .binary?:
            channel.close()
            throw .malformedResponse
        }
        // The rest of the channel's events, through the same iterator.
        let events = AsyncStream<TerminalEvent> { continuation in
            // Below the window's priority: under a flood this hop must not take the cores the window needs.
            let pump = Task(priority: .utility) {
                while let event = await frames.next() {
                    switch event {
                    case .binary(let data): continuation.yield(.output(data))
                    case .text(let text): continuation.yield(.output(Data(text.utf8)))
                    case .closed(let code): continuation.yield(.closed(shellExited: code == 1000))
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in pump.cancel() }
        }
        return TerminalConnection(channel: channel, events: events)
    }

    /// Keystrokes or a paste.
    public func send(_ bytes: Data) { channel.send(binary: bytes) }

    /// `count` bytes of output have been shown: the socket may read that much more.
    public func shown(_ count: Int) { channel.shown(count) }

    /// The terminal's size in character cells.
    public func resize(rows: Int, cols: Int) {
        channel.send(binary: Data(TerminalSize(rows: rows, cols: cols).frame.utf8))
    }

    public func close() { channel.close() }
}

/// The channel's one iterator, handed from the authentication step to the pump task (one reader at a
/// time: the authentication is over before the pump starts).
private final class FrameReader: @unchecked Sendable {
    private var iterator: AsyncStream<WebSocketEvent>.AsyncIterator
    init(_ iterator: AsyncStream<WebSocketEvent>.AsyncIterator) { self.iterator = iterator }
    func next() async -> WebSocketEvent? { await iterator.next() }
}

/// A terminal's size in character cells, and its resize frame.
public struct TerminalSize: Sendable, Equatable {
    public let rows: Int
    public let cols: Int

    public init(rows: Int, cols: Int) { (self.rows, self.cols) = (max(rows, 1), max(cols, 1)) }

    public var frame: String { #"{"type":"resize","rows":\#(rows),"cols":\#(cols)}"# }
}

/// What a terminal tab or `builderos terminal --profile` starts with: the shell as it is, or
/// Jarvis (Claude Code) or Codex typed into it after every (re)connect.
public enum TerminalProfile: String, Sendable, CaseIterable {
    case shell, jarvis, codex

    public var title: String {
        switch self {
        case .shell: return L("Shell")
        case .jarvis: return "Jarvis"
        case .codex: return "Codex"
        }
    }

    /// The command typed after connecting ("" for none), unless the user chose another.
    public var defaultCommand: String {
        switch self {
        case .shell: return ""
        case .jarvis: return "claude"
        case .codex: return "codex"
        }
    }

    /// The bytes to type: the command and Enter, or nothing.
    public static func startBytes(command: String) -> Data? {
        let trimmed = command.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return Data((trimmed + "\r").utf8)
    }
}
