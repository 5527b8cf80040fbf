import Foundation
import Synchronization

/// Checks a server and key before anything is stored: reachability (`GET /api/status`), the key
/// (a throw-away WebSocket authentication, since the core server does not check it on
/// `/api/status`), version and latency (median of 3), and the system server (capsules 200 vs 404).
public struct ConnectionTest: Sendable {
    public let server: ServerAddress
    private let apiKey: String
    private let configuration: ClientConfiguration

    public init(server: ServerAddress, apiKey: String, configuration: ClientConfiguration = .init()) {
        (self.server, self.apiKey, self.configuration) = (server, apiKey, configuration)
    }

    /// Runs every step in order; `progress` is told when a step starts and how it ends.
    public func run(progress: @Sendable (ConnectionTestStep, ConnectionTestOutcome) -> Void = { _, _ in }) async -> ConnectionReport {
        var report = ConnectionReport()
        var noRetry = configuration
        noRetry.retry = .never
        let client = RESTClient(server: server, apiKey: apiKey, configuration: noRetry)

        func record(_ step: ConnectionTestStep, _ outcome: ConnectionTestOutcome) {
            report.outcomes[step] = outcome
            progress(step, outcome)
        }
        func skipRest(after step: ConnectionTestStep) {
            for later in ConnectionTestStep.allCases where later > step { record(later, .skipped) }
        }

        // 1. Reachability
        progress(.reachability, .running)
        let status: StatusReply
        do throws(BuilderOSError) { status = try await client.status() } catch {
            record(.reachability, .failed(error))
            skipRest(after: .reachability)
            return report
        }
        record(.reachability, .passed(detail: server.displayURL))

        // 2. Key
        progress(.key, .running)
        if let failure = await checkKey() {
            record(.key, .failed(failure))
            skipRest(after: .key)
            return report
        }
        record(.key, .passed(detail: L("The server accepted the API key.")))

        // 3. Version and latency
        progress(.versionAndLatency, .running)
        do throws(BuilderOSError) {
            let measured = try await client.measuredStatus()
            report.version = measured.status.version ?? status.version
            report.latencyMilliseconds = measured.latencyMilliseconds
        } catch {
            record(.versionAndLatency, .failed(error))
            skipRest(after: .versionAndLatency)
            return report
        }
        record(
            .versionAndLatency,
            .passed(
                detail: String(
                    format: L("Version %@, %d ms"),
                    report.version ?? L("unknown"), Int(report.latencyMilliseconds!.rounded()))))

        // 4. System features
        progress(.systemFeatures, .running)
        do throws(BuilderOSError) {
            let capsules = try await client.capsules()
            report.systemAvailable = true
            let count = capsules.count ?? capsules.capsules.count
            record(.systemFeatures, .passed(detail: L("%d capsule", "%d capsules", counting: count)))
        } catch .notAvailableOnServer {
            report.systemAvailable = false
            record(.systemFeatures, .passedWithNote(L("Capsules and power controls are not available on this server. Chat works as usual.")))
        } catch .unauthorized {
            record(.systemFeatures, .failed(.unauthorized))
        } catch {
            // Optional features must not block setup: report them as a note.
            record(.systemFeatures, .passedWithNote(error.userMessage))
        }
        return report
    }

    /// Authenticates on `/api/claude/ws` and closes right after. Returns nil when the key is good.
    func checkKey() async -> BuilderOSError? {
        let channel: WebSocketChannel
        do {
            channel = try await WebSocketChannel.connect(
                url: server.webSocketURL(path: ChatAgent.jarvis.socketPath), host: server.host,
                configuration: configuration, pingInterval: 0)
        } catch { return error }
        defer { channel.close() }
        channel.send(apiKey)
        let timedOut = Mutex(false)
        let timeout = Task {
            try await Task.sleep(nanoseconds: UInt64(configuration.connectTimeout * 1e9))
            timedOut.withLock { $0 = true }
            channel.close()
        }
        defer { timeout.cancel() }
        for await event in channel.events {
            guard case .text(let text) = event else { break }
            switch ChatFrame(text: text) {
            case .authenticated: return nil
            case .authenticationFailed: return .unauthorized
            default: continue  // e.g. a `ready` sent early
            }
        }
        return timedOut.withLock { $0 } ? .timedOut : .connectionLost
    }
}
