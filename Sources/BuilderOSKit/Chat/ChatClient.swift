import Foundation

/// One agent's chat socket: connects, authenticates with the key as first frame, keeps the
/// connection (ping, reconnect with backoff) and runs one turn at a time. A turn in flight survives
/// a reconnect: re-sent if no chunk arrived, otherwise kept as an interrupted partial reply.
public actor ChatClient {
    public nonisolated let events: AsyncStream<ChatEvent>
    private let eventSink: AsyncStream<ChatEvent>.Continuation

    private let server: ServerAddress
    private let key: SessionKey
    private let agent: ChatAgent
    private let configuration: ChatConfiguration

    public private(set) var state: ChatConnectionState = .disconnected
    public private(set) var turn: ChatTurn?
    private var channel: WebSocketChannel?
    private var runner: Task<Void, Never>?
    private var backoffWait: Task<Void, Never>?
    private var stopped = true

    public init(server: ServerAddress, apiKey: String, agent: ChatAgent, configuration: ChatConfiguration = .init()) {
        self.init(server: server, key: SessionKey(apiKey), agent: agent, configuration: configuration)
    }

    /// A socket whose key may still be on its way from the keyring: each connection waits for it.
    public init(server: ServerAddress, key: SessionKey, agent: ChatAgent, configuration: ChatConfiguration = .init()) {
        (self.server, self.key, self.agent, self.configuration) = (server, key, agent, configuration)
        (events, eventSink) = AsyncStream.makeStream(of: ChatEvent.self, bufferingPolicy: .unbounded)
    }

    /// True after `shutdown()`: the client never starts again.
    private var shutDown = false

    /// Connects and stays connected until `stop()`. Does nothing after `shutdown()`: a start that arrives late
    /// (start and shutdown sent as separate tasks, in the wrong order) must not leave a client reconnecting
    /// for ever with nobody listening.
    public func start() {
        guard stopped, !shutDown else { return }
        stopped = false
        runner = Task { await self.run() }
    }

    public func stop() {
        stopped = true
        backoffWait?.cancel()
        runner?.cancel()
        channel?.close()
        channel = nil
        if var current = turn, !current.isFinished {
            current.stop()
            turn = current
            eventSink.yield(.finished(current))
        }
        set(.disconnected)
    }

    /// Stops for good: the event stream ends after the last events, so listeners finish.
    public func shutdown() {
        shutDown = true
        stop()
        eventSink.finish()
    }

    /// Whether the connection loop is running (started and not stopped).
    public var isRunning: Bool { !stopped }

    /// Skips the current backoff wait (e.g. when the network comes back).
    public func reconnectNow() { backoffWait?.cancel() }

    private var paused = false

    /// While paused (the computer is offline) the client makes no connection attempts; an open
    /// connection is left to end by itself. Resuming retries at once.
    public func setPaused(_ paused: Bool) {
        self.paused = paused
        if !paused { backoffWait?.cancel() }
    }

    /// Starts a turn. Sent at once when connected, otherwise as soon as the socket is ready.
    /// Returns nil when a turn is already in flight (one turn at a time) or the text is empty.
    public func send(_ message: OutgoingChatMessage) -> ChatTurn.ID? {
        guard !message.content.isEmpty, turn.map(\.isFinished) ?? true else { return nil }
        turn = ChatTurn(message: message)
        if state == .connected { transmitTurn(resent: false) }
        return turn?.id
    }

    /// Stops waiting for the current turn's reply.
    public func stopTurn() {
        guard var current = turn, !current.isFinished else { return }
        current.stop()
        turn = current
        eventSink.yield(.finished(current))
    }

    // MARK: Connection loop

    private func run() async {
        var attempt = 0
        while !stopped && !Task.isCancelled {
            // Offline: no attempts at all until the network is back (then at once, attempt 0).
            if paused {
                while paused && !stopped && !Task.isCancelled { try? await Task.sleep(nanoseconds: 100_000_000) }
                attempt = 0
                guard !stopped else { break }
            }
            set(.connecting)
            var authenticatedAt: ContinuousClock.Instant?
            let failure = await connectAndServe(onAuthenticated: { authenticatedAt = .now })
            guard !stopped else { break }
            // A connection that authenticated counts as good again (the backoff starts over), unless it ended
            // while a message waited for its first chunk and did not last: then the message may be the cause.
            let messageInFlight = turn?.phase == .awaitingReply
            if let authenticatedAt,
                !messageInFlight || ContinuousClock.now - authenticatedAt >= .seconds(configuration.stableConnection)
            {
                attempt = 0
            }
            handleDrop()
            if failure.stopsReconnecting {
                set(.failed(failure))
                break
            }
            let delay = configuration.reconnect.delay(forAttempt: attempt)
            attempt += 1
            set(.waitingToReconnect(after: failure, delay: delay))
            let wait = Task { _ = try? await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
            backoffWait = wait
            await wait.value
        }
    }

    /// One connection's life. Returns why it ended.
    private func connectAndServe(onAuthenticated: () -> Void) async -> BuilderOSError {
        // The keyring's answer first; a key that would not go out as it is (a line break, a space)
        // is refused before any connection.
        let apiKey: String
        do { apiKey = try await key.value() } catch { return error }
        if let problem = APIKey.problemSending(apiKey) { return .invalidAPIKey(problem) }
        let channel: WebSocketChannel
        do {
            channel = try await WebSocketChannel.connect(
                url: server.webSocketURL(path: agent.socketPath), host: server.host,
                configuration: configuration.network, pingInterval: configuration.pingInterval,
                maxFrameBytes: configuration.maxFrameBytes)
        } catch {
            return error
        }
        guard !stopped else { channel.close(); return .cancelled }
        self.channel = channel
        set(.authenticating)
        channel.send(apiKey)
        let watchdog = Task { [configuration] in
            try await Task.sleep(nanoseconds: UInt64(configuration.authenticationTimeout * 1e9))
            self.authenticationTimedOut(channel)
        }
        defer { watchdog.cancel() }

        var ending: BuilderOSError = .connectionLost
        for await event in channel.events {
            switch event {
            case .closed(let code) where code == WebSocketChannel.closedTooBig:
                // One frame over the cap, refused unread: the reply is over it too. Not sent again.
                endTurn {
                    $0.fail(BuilderOSError.replyTooLarge(limitBytes: configuration.maxReplyBytes).userMessage); return ""
                }
            case .closed, .binary:
                break
            case .text(let text):
                switch ChatFrame(text: text) {
                case .authenticated:
                    watchdog.cancel()
                    onAuthenticated()
                    set(.connected)
                    if turn?.phase == .queued { transmitTurn(resent: (turn?.sendCount ?? 0) > 0) }
                case .authenticationFailed(let reason):
                    ending = reason.contains("invalid_api_key") || reason.contains("auth") ? .unauthorized : .serverRefused(message: reason)
                    channel.close()
                case .ready:
                    eventSink.yield(.ready)
                case .chunk(let content):
                    receiveChunk(content, on: channel)
                case .complete:
                    endTurn { $0.complete() }
                case .error(let content):
                    endTurn {
                        $0.fail(content); return ""
                    }
                case .unknown, .malformed:
                    continue
                }
            }
        }
        if self.channel === channel { self.channel = nil }
        if authTimedOut { authTimedOut = false; return .timedOut }
        return ending
    }

    private var authTimedOut = false
    /// When the current turn last heard from the server (sent, or a chunk): its deadline runs from here.
    private var lastTurnActivity = ContinuousClock.now
    private var turnDeadline: Task<Void, Never>?

    /// One watchdog per turn in flight, rather than one timer per chunk: it sleeps until the deadline
    /// as it stands and looks again, so chunks only move a timestamp.
    private func watchTurnDeadline() {
        turnDeadline?.cancel()
        lastTurnActivity = .now
        let deadline = Duration.seconds(configuration.replyDeadline)
        turnDeadline = Task { [weak self] in
            while !Task.isCancelled {
                guard let due = await self?.turnDue(after: deadline) else { return }
                if due <= .now {
                    await self?.turnDeadlinePassed()
                    return
                }
                try? await Task.sleep(until: due, clock: .continuous)
            }
        }
    }

    private func turnDue(after deadline: Duration) -> ContinuousClock.Instant? {
        guard let turn, turn.phase == .awaitingReply || turn.phase == .streaming else { return nil }
        return lastTurnActivity + deadline
    }

    private func turnDeadlinePassed() {
        endTurn {
            $0.fail(BuilderOSError.replyDeadlinePassed(seconds: Int(configuration.replyDeadline)).userMessage); return ""
        }
    }

    private func authenticationTimedOut(_ channel: WebSocketChannel) {
        guard self.channel === channel, state == .authenticating else { return }
        authTimedOut = true
        channel.close()
    }

    // MARK: Turns

    private func transmitTurn(resent: Bool) {
        guard var current = turn, current.phase == .queued, let channel else { return }
        channel.send(current.message.json())
        current.markSent()
        turn = current
        watchTurnDeadline()
        eventSink.yield(.sent(turn: current.id, resent: resent))
    }

    private func receiveChunk(_ content: String, on channel: WebSocketChannel) {
        guard let id = turn?.id, turn?.isFinished == false else { return }
        lastTurnActivity = .now
        if turn!.reply.receivedBytes + content.utf8.count > configuration.maxReplyBytes {
            // Keep what arrived, end the turn, and close the socket so the stream stops coming.
            endTurn {
                $0.fail(BuilderOSError.replyTooLarge(limitBytes: configuration.maxReplyBytes).userMessage); return ""
            }
            channel.abort()
            return
        }
        // In place: a copy of the turn would copy the whole reply on every chunk.
        let visible = turn!.receive(chunk: content)
        if !visible.isEmpty { eventSink.yield(.delta(turn: id, text: visible)) }
    }

    private func endTurn(_ change: (inout ChatTurn) -> String) {
        guard var current = turn, !current.isFinished else { return }
        turnDeadline?.cancel()
        let tail = change(&current)
        turn = current
        if !tail.isEmpty { eventSink.yield(.delta(turn: current.id, text: tail)) }
        eventSink.yield(.finished(current))
    }

    private func handleDrop() {
        guard var current = turn, !current.isFinished else { return }
        let resend = current.connectionDropped()
        turn = current
        if !resend { eventSink.yield(.finished(current)) }
    }

    private func set(_ newState: ChatConnectionState) {
        guard newState != state else { return }
        state = newState
        eventSink.yield(.connection(newState))
    }
}
