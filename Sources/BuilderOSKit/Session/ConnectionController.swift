import Foundation

/// The one connection state machine. It owns the chat sockets (one per agent), turns the primary
/// socket's state, status polls and the user's Connect/Disconnect into one `ConnectionSnapshot`,
/// and hands chat events to the `ChatService`. Every indicator observes `changes`.
@MainActor
public final class ConnectionController {
    public private(set) var snapshot: ConnectionSnapshot {
        didSet { if snapshot != oldValue { changes.notify(snapshot) } }
    }
    public let changes = Observers<ConnectionSnapshot>()
    /// Every chat socket's events, in order, with the agent whose socket sent them.
    public let chatEvents = Observers<(ChatAgent, ChatEvent)>()

    /// The server's REST API (status polls here; the pages read and act through it).
    public let api: any BuilderOSAPI
    /// Makes one agent's chat socket; called for each agent on every Connect.
    public typealias TransportFactory = @MainActor (ChatAgent) -> any ChatTransport
    private let makeTransport: TransportFactory
    public private(set) var clients: [ChatAgent: any ChatTransport] = [:]
    private var listeners: [Task<Void, Never>] = []
    private var poller: Task<Void, Never>?
    /// Seconds between status polls while connected (latency, version).
    public var pollInterval: Double = 30
    /// When pages showing the server's state refresh on their own (Preferences' interval; the app sets it).
    public let refreshSchedule = RefreshSchedule(chosenSeconds: 0)

    /// The controller over any API and sockets (the core's tests pass fakes).
    public init(server: ServerAddress, api: any BuilderOSAPI, transports: @escaping TransportFactory) {
        self.api = api
        makeTransport = transports
        snapshot = ConnectionSnapshot(server: server, wantsConnection: false)
    }

    /// The controller over the real wire: `RESTClient` and one `ChatClient` per agent, both waiting
    /// for the key if the keyring has not answered yet.
    public convenience init(server: ServerAddress, key: SessionKey, chatConfiguration: ChatConfiguration = .init()) {
        self.init(server: server, api: RESTClient(server: server, key: key, configuration: chatConfiguration.network)) { agent in
            ChatClient(server: server, key: key, agent: agent, configuration: chatConfiguration)
        }
    }

    /// Opens both chat sockets and starts polling status.
    public func connect() {
        guard !snapshot.wantsConnection else { return }
        for agent in ChatAgent.allCases {
            let client = makeTransport(agent)
            clients[agent] = client
            listeners.append(
                Task { [weak self] in
                    for await event in client.events {
                        guard let self else { return }
                        self.handle(event, from: agent)
                    }
                })
            let offline = snapshot.offline
            Task {
                await client.setPaused(offline)
                await client.start()
            }
        }
        // Announced once the sockets exist: the outbox hands them its queued messages at once.
        snapshot.wantsConnection = true
        refreshStatus()
    }

    /// Closes the sockets. Turns in flight end as stopped; queued messages stay in the outbox.
    public func disconnect() {
        guard snapshot.wantsConnection else { return }
        snapshot.wantsConnection = false
        poller?.cancel()
        let old = clients
        clients = [:]
        // Each listener ends by itself after the client's last events (a stopped turn, the state).
        for client in old.values { Task { await client.shutdown() } }
        listeners.removeAll()
        snapshot.socket = .disconnected
    }

    /// Connect after Disconnect or Failed (the Retry button).
    public func reconnect() {
        if snapshot.wantsConnection, case .waitingToReconnect = snapshot.socket {
            for client in clients.values { Task { await client.reconnectNow() } }
            return
        }
        disconnect()
        connect()
    }

    /// The network came or went (GNetworkMonitor). Offline: no connection attempts and no polls.
    /// Back: reconnect at once instead of waiting out the backoff.
    public func networkChanged(available: Bool) {
        guard snapshot.offline == available else { return }
        snapshot.offline = !available
        for client in clients.values { Task { await client.setPaused(!available) } }
        if available && snapshot.wantsConnection { refreshStatus() }
    }

    /// The desktop's power saver: status polls every 2 minutes instead of every 30 s, and the pages'
    /// auto-refresh four times slower.
    public func powerSaverChanged(enabled: Bool) {
        snapshot.powerSaver = enabled
        pollInterval = enabled ? 120 : 30
        refreshSchedule.powerSaver = enabled
    }

    /// Measures latency now (three samples) and reads the server's status.
    public func refreshStatus() {
        poller?.cancel()
        poller = Task { [weak self] in
            while let self, !Task.isCancelled, self.snapshot.wantsConnection {
                if !self.snapshot.offline { await self.pollOnce() }
                let interval = self.pollInterval
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
            }
        }
    }

    private func pollOnce() async {
        do throws(BuilderOSError) {
            let measured = try await api.measuredStatus()
            guard !Task.isCancelled else { return }
            snapshot.status = measured.status
            snapshot.latencyMilliseconds = measured.latencyMilliseconds
            snapshot.lastSync = Date()
            if snapshot.systemServer == nil {
                // A status that lists its features says it; otherwise a capsules call shows it.
                if let listed = SystemServerPresence.shown(by: measured.status) { snapshot.systemServer = listed } else { await probeSystemServer() }
            }
        } catch {
            guard !Task.isCancelled else { return }
            snapshot.latencyMilliseconds = nil
            snapshot.lastFailure = error
        }
    }

    private func probeSystemServer() async {
        let api = api
        noteSystemRoute(await Result.of { () async throws(BuilderOSError) in try await api.capsules() })
    }

    /// What a call to a system-server route showed (`SystemServerPresence`); pages that call one
    /// (capsules, sleep, wake) share what they learn here.
    public func noteSystemRoute<T>(_ result: Result<T, BuilderOSError>) {
        if let present = SystemServerPresence.shown(by: result) { snapshot.systemServer = present }
    }

    private func handle(_ event: ChatEvent, from agent: ChatAgent) {
        switch event {
        case .connection(let state):
            guard agent == .jarvis, snapshot.wantsConnection else { break }
            let wasConnected = snapshot.socket == .connected
            // One change, one announcement: the state and its cause together.
            var next = snapshot
            next.socket = state
            switch state {
            case .waitingToReconnect(let failure, _): next.lastFailure = failure
            case .failed(let failure): next.lastFailure = failure
            case .connected: next.lastSync = Date()
            default: break
            }
            snapshot = next
            if state == .connected && !wasConnected { refreshStatus() }
        case .delta, .finished:
            // At most once a second: every change of the snapshot redraws every indicator, and
            // a reply can bring thousands of chunks a second.
            if snapshot.lastSync.map({ Date().timeIntervalSince($0) >= 1 }) ?? true { snapshot.lastSync = Date() }
        default: break
        }
        chatEvents.notify((agent, event))
    }
}
