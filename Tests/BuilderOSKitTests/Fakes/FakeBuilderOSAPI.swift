import Foundation
import Synchronization

@testable import BuilderOSKit

/// FAKE of the server's REST API (the real one is `RESTClient`, tested over loopback in
/// IntegrationTests). Answers status with a fixed latency, capsules with 404 or a list, and
/// records the sessions the core closes.
final class FakeBuilderOSAPI: BuilderOSAPI {
    let server: ServerAddress
    let latency: Double
    let hasSystemServer: Bool
    /// `closeSession` calls as "agent/session", in order.
    let closedSessions: AsyncStream<String>
    private let closedSink: AsyncStream<String>.Continuation
    private let statusCalls = Mutex(0)

    init(latency: Double = 12, hasSystemServer: Bool = false) {
        server = try! ServerAddress.parse("http://fake.test:8080")
        (self.latency, self.hasSystemServer) = (latency, hasSystemServer)
        (closedSessions, closedSink) = AsyncStream.makeStream(of: String.self)
    }

    var statusPolls: Int { statusCalls.withLock { $0 } }

    func with(requestTimeout: Double) -> any BuilderOSAPI { self }

    func health() async throws(BuilderOSError) -> HealthReply { HealthReply(status: "ok") }
    func status() async throws(BuilderOSError) -> StatusReply { StatusReply(status: "running", version: "fake-1") }

    func measuredStatus(samples: Int) async throws(BuilderOSError) -> (status: StatusReply, latencyMilliseconds: Double) {
        statusCalls.withLock { $0 += 1 }
        return (try await status(), latency)
    }

    func sessions() async throws(BuilderOSError) -> SessionList { throw .notAvailableOnServer }

    func closeSession(agent: ChatAgent, sessionID: String) async throws(BuilderOSError) {
        closedSink.yield("\(agent.rawValue)/\(sessionID)")
    }

    func capsules() async throws(BuilderOSError) -> CapsuleList {
        guard hasSystemServer else { throw .notAvailableOnServer }
        return CapsuleList(count: 0, capsules: [])
    }

    func capsule(named name: String) async throws(BuilderOSError) -> CapsuleDetail { throw .notAvailableOnServer }
    func sleep() async throws(BuilderOSError) -> SleepReply { throw .notAvailableOnServer }
    func wake() async throws(BuilderOSError) -> WakeReply { throw .notAvailableOnServer }

    func upload(
        fileAt path: String, kind: String, mimeType: String,
        progress: (@Sendable (Int64, Int64) -> Void)?
    ) async throws(BuilderOSError) -> UploadReply {
        throw .fileUnreadable(path: path)
    }
}
