import Foundation

/// The server's REST API as the session and the pages use it. `RESTClient` speaks it over HTTP;
/// the core's tests answer with a fake. Every call fails with a `BuilderOSError`.
public protocol BuilderOSAPI: Sendable {
    var server: ServerAddress { get }
    /// The same API with another request timeout (e.g. 10 s for sleep).
    func with(requestTimeout: Double) -> any BuilderOSAPI

    func health() async throws(BuilderOSError) -> HealthReply
    func status() async throws(BuilderOSError) -> StatusReply
    /// The median of `samples` status round trips in milliseconds, with the last status reply.
    func measuredStatus(samples: Int) async throws(BuilderOSError) -> (status: StatusReply, latencyMilliseconds: Double)
    func sessions() async throws(BuilderOSError) -> SessionList
    func closeSession(agent: ChatAgent, sessionID: String) async throws(BuilderOSError)

    func capsules() async throws(BuilderOSError) -> CapsuleList
    func capsule(named name: String) async throws(BuilderOSError) -> CapsuleDetail
    func sleep() async throws(BuilderOSError) -> SleepReply
    func wake() async throws(BuilderOSError) -> WakeReply

    func upload(
        fileAt path: String, kind: String, mimeType: String,
        progress: (@Sendable (Int64, Int64) -> Void)?
    ) async throws(BuilderOSError) -> UploadReply
}

extension BuilderOSAPI {
    /// Latency as the product reports it everywhere: three samples.
    public func measuredStatus() async throws(BuilderOSError) -> (status: StatusReply, latencyMilliseconds: Double) {
        try await measuredStatus(samples: 3)
    }

    public func upload(fileAt path: String, kind: String, mimeType: String) async throws(BuilderOSError) -> UploadReply {
        try await upload(fileAt: path, kind: kind, mimeType: mimeType, progress: nil)
    }
}

extension RESTClient: BuilderOSAPI {
    public func with(requestTimeout: Double) -> any BuilderOSAPI { withTimeout(requestTimeout) }
}
