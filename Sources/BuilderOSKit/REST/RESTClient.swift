import Foundation

/// Every REST route of the wire contract; every call fails with a `BuilderOSError` (typed). Sends `X-API-Key` on every call; retries only idempotent
/// calls on transient failures; never blocks the caller's thread (transfers run on the curl thread).
public final class RESTClient: Sendable {
    public let server: ServerAddress
    /// No key (the connection test's first probe), a key in hand, or a session's key still on its
    /// way from the keyring (every call waits for it before anything is sent).
    private let key: SessionKey?
    private let configuration: ClientConfiguration

    public convenience init(server: ServerAddress, apiKey: String?, configuration: ClientConfiguration = .init()) {
        self.init(server: server, key: apiKey.map(SessionKey.init), configuration: configuration)
    }

    public init(server: ServerAddress, key: SessionKey?, configuration: ClientConfiguration = .init()) {
        self.server = server
        self.key = key
        self.configuration = configuration
    }

    /// Starts loading the HTTP library on a thread of its own, ahead of the first request. Its
    /// `dlopen` holds the dynamic loader's lock throughout, and every thread created meanwhile waits
    /// for that lock: start it once the threads of the moment exist (see `CredentialStore.lookup`).
    public static func loadInBackground() { CurlEngine.loadInBackground() }

    /// The same client with another request timeout.
    public func withTimeout(_ requestTimeout: Double) -> RESTClient {
        var c = configuration
        c.requestTimeout = requestTimeout
        return RESTClient(server: server, key: key, configuration: c)
    }

    // MARK: Core server

    public func health() async throws(BuilderOSError) -> HealthReply { try await get("/api/health") }
    public func status() async throws(BuilderOSError) -> StatusReply { try await get("/api/status") }

    /// `GET /api/status` with its round-trip time in seconds as curl measured it.
    public func timedStatus() async throws(BuilderOSError) -> (StatusReply, Double) {
        let response = try await send(request(.get, "/api/status"), retry: .never)
        return (try HTTPStatusMapping.decode(StatusReply.self, from: response), response.totalTime)
    }

    /// Latency as the product reports it everywhere: the median of `samples` status round trips,
    /// in milliseconds, with the last status reply. Never retried: a retry would hide slowness.
    public func measuredStatus(samples: Int) async throws(BuilderOSError) -> (status: StatusReply, latencyMilliseconds: Double) {
        var times: [Double] = []
        var latest: StatusReply?
        for _ in 0..<max(samples, 1) {
            let (reply, seconds) = try await timedStatus()
            latest = reply
            times.append(seconds * 1000)
        }
        return (latest!, times.sorted()[times.count / 2])
    }

    public func sessions() async throws(BuilderOSError) -> SessionList { try await get("/api/sessions") }

    /// Closes a server-side session. Fire-and-forget on servers that lack the route.
    public func closeSession(agent: ChatAgent, sessionID: String) async throws(BuilderOSError) {
        let r = request(
            .delete, "/api/\(agent.serverName)/session/\(sessionID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? sessionID)/close")
        // This route authenticates with `Authorization: <key>` instead of `X-API-Key`.
        let response = try await send(r, retry: .never, keyHeaders: ["X-API-Key", "Authorization"])
        if let error = HTTPStatusMapping.error(for: response) { throw error }
    }

    // MARK: System server

    public func capsules() async throws(BuilderOSError) -> CapsuleList { try await get("/api/capsules") }

    public func capsule(named name: String) async throws(BuilderOSError) -> CapsuleDetail {
        try await get("/api/capsules/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name))
    }

    /// Never retried: a retried sleep could put a machine back to sleep that the user just woke.
    public func sleep() async throws(BuilderOSError) -> SleepReply {
        let response = try await send(request(.post, "/api/system/sleep"), retry: .never)
        let reply = try HTTPStatusMapping.decode(SleepReply.self, from: response)
        if !reply.succeeded { throw .serverRefused(message: HTTPStatusMapping.sanitised(reply.message ?? L("The server could not go to sleep."))) }
        return reply
    }

    public func wake() async throws(BuilderOSError) -> WakeReply {
        let response = try await send(request(.post, "/api/system/wake"), retry: .never)
        return try HTTPStatusMapping.decode(WakeReply.self, from: response)
    }

    // MARK: Files

    /// Uploads a file as multipart (`file` + `type`). The size limit is checked before sending;
    /// `progress` receives (sent, total) bytes on a background thread. Never retried.
    public func upload(
        fileAt path: String, kind: String, mimeType: String,
        progress: (@Sendable (Int64, Int64) -> Void)?
    ) async throws(BuilderOSError) -> UploadReply {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch { throw .fileUnreadable(path: path) }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        guard size <= UploadLimit.maximumBytes else { throw .fileTooLarge(bytes: size) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .fileUnreadable(path: path) }
        var r = request(.post, "/api/files/upload")
        r.body = .multipartFile(
            path: path, filename: (path as NSString).lastPathComponent, mimeType: mimeType,
            fields: [("type", UploadLimit.kinds.contains(kind) ? kind : "other")])
        r.totalTimeout = configuration.uploadTimeout
        r.uploadProgress = progress
        let response = try await send(r, retry: .never)
        return try HTTPStatusMapping.decode(UploadReply.self, from: response)
    }

    // MARK: Plumbing

    private func get<T: Decodable>(_ path: String) async throws(BuilderOSError) -> T {
        let response = try await send(request(.get, path), retry: configuration.retry)
        return try HTTPStatusMapping.decode(T.self, from: response)
    }

    private func request(_ method: HTTPRequest.Method, _ path: String) -> HTTPRequest {
        HTTPRequest(
            method: method, url: server.url(path: path), headers: [("Accept", "application/json")],
            connectTimeout: configuration.connectTimeout, totalTimeout: configuration.requestTimeout,
            maxResponseBytes: configuration.maxResponseBytes, extraCAFile: configuration.extraCAFile)
    }

    /// Sends with the key (once the keyring has it) and the retry policy: transport errors and
    /// 502/503/504 only, with backoff between.
    private func send(_ unkeyed: HTTPRequest, retry: RetryPolicy, keyHeaders: [String] = ["X-API-Key"]) async throws(BuilderOSError) -> HTTPResponse {
        var request = unkeyed
        if let key {
            let apiKey = try await key.value()
            if let problem = APIKey.problemSending(apiKey) { throw .invalidAPIKey(problem) }
            request.headers += keyHeaders.map { ($0, apiKey) }
        }
        var attempt = 0
        while true {
            do {
                guard let engine = CurlEngine.shared else { throw CurlEngine.unavailable }
                let response = try await engine.perform(request)
                guard let error = HTTPStatusMapping.error(for: response), retry.shouldRetry(after: error, attempt: attempt) else {
                    return response
                }
            } catch let error as BuilderOSError {
                guard retry.shouldRetry(after: error, attempt: attempt) else { throw error }
            } catch {
                throw .cancelled
            }
            let delay = retry.backoff.delay(forAttempt: attempt)
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { throw .cancelled }
            attempt += 1
        }
    }
}
