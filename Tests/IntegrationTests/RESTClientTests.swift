import Foundation
import ReferenceServer
import Testing
import ToolSupport

@testable import BuilderOSKit

/// Every REST route of the contract, over real loopback sockets against the reference server.
struct RESTClientTests {
    @Test func healthStatusAndSessions() async throws {
        let server = try await RunningServer.start()
        let client = server.client()
        let health = try await client.health()
        #expect(health.status == "ok" && health.connections?.claude == 0)
        let status = try await client.status()
        #expect(status.status == "running" && status.version == ReferenceServer.version)
        #expect(status.timestamp?.date != nil)
        let sessions = try await client.sessions()
        #expect(sessions.total == 0)
        await server.stop()
    }

    /// libcurl's GnuTLS flavour is the one loaded (GnuTLS is already the chat socket's TLS stack; the
    /// OpenSSL flavour would add libssl): after a request, the process maps `libcurl-gnutls.so.4`.
    @Test func requestsGoThroughLibcurlsGnuTLSFlavour() async throws {
        let server = try await RunningServer.start()
        _ = try await server.client().health()
        // Read to the end (String(contentsOfFile:) stops after the first page of a /proc file).
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("/libcurl-gnutls.so.4"))
        #expect(!maps.contains("/libcurl.so.4"))
        await server.stop()
    }

    @Test func capsulesAndDetail() async throws {
        let server = try await RunningServer.start()
        let list = try await server.client().capsules()
        #expect(list.count == 5 && list.capsules.first?.name == "jarvis-core")
        let detail = try await server.client().capsule(named: "log-search")
        #expect(detail.title == "Log Search" && detail.directories == ["index", "src"])
        await #expect(throws: BuilderOSError.notAvailableOnServer) { try await server.client().capsule(named: "nope") }
        await server.stop()
    }

    @Test func aSessionKeyFromTheKeyringIsAwaitedAndSent() async throws {
        let server = try await RunningServer.start()
        let stored = server.key
        let client = RESTClient(server: server.address, key: SessionKey { () async throws(BuilderOSError) -> String? in stored })
        #expect(try await client.capsules().count == 5)
        await server.stop()
    }

    @Test func noKeyInTheKeyringSendsNothing() async throws {
        let server = try await RunningServer.start()
        let client = RESTClient(server: server.address, key: SessionKey { () async throws(BuilderOSError) -> String? in nil })
        await #expect(throws: BuilderOSError.notSignedIn) { try await client.capsules() }
        await #expect(throws: BuilderOSError.secretServiceUnavailable) {
            try await RESTClient(
                server: server.address, key: SessionKey { () async throws(BuilderOSError) -> String? in throw .secretServiceUnavailable }
            ).status()
        }
        #expect(server.state.requestCount(path: "/api/capsules") == 0 && server.state.requestCount(path: "/api/status") == 0)
        await server.stop()
    }

    @Test func wrongKeyIsRejectedOnKeyRoutes() async throws {
        let server = try await RunningServer.start()
        let client = server.client(key: "wrong")
        await #expect(throws: BuilderOSError.unauthorized) { try await client.capsules() }
        await #expect(throws: BuilderOSError.unauthorized) { try await client.sleep() }
        // The core server does not check the key on status, as real servers do not.
        _ = try await client.status()
        await server.stop()
    }

    @Test func systemServerAbsentAnswers404() async throws {
        var faults = Faults()
        faults.systemRoutesAbsent = true
        let server = try await RunningServer.start(faults: faults)
        await #expect(throws: BuilderOSError.notAvailableOnServer) { try await server.client().capsules() }
        await #expect(throws: BuilderOSError.notAvailableOnServer) { try await server.client().sleep() }
        await #expect(throws: BuilderOSError.notAvailableOnServer) { try await server.client().wake() }
        await server.stop()
    }

    @Test func sleepInBothShapesAndNeverRetried() async throws {
        let server = try await RunningServer.start()
        let reply = try await server.client().sleep()
        #expect(reply.succeeded && reply.message?.contains("sleep") == true)
        var faults = Faults()
        faults.legacySleepReply = true
        server.state.faults = faults
        #expect(try await server.client().sleep().succeeded)
        faults.tunnelErrorStatus = 502
        server.state.faults = faults
        await #expect(throws: BuilderOSError.tunnelError(status: 502)) { try await server.client().sleep() }
        #expect(server.state.requestCount(path: "/api/system/sleep") == 3)  // 2 accepted + 1 refused, no retry
        #expect(server.state.sleepRequestCount == 2)
        await server.stop()
    }

    @Test func wakeInstructions() async throws {
        let server = try await RunningServer.start()
        let wake = try await server.client().wake()
        #expect(wake.status == "not_implemented" && wake.instructions.count == 2 && wake.help != nil)
        await server.stop()
    }

    @Test func gatewayErrorsAreRetriedWithBackoffOthersAreNot() async throws {
        var faults = Faults()
        faults.tunnelErrorStatus = 502
        let server = try await RunningServer.start(faults: faults)
        var configuration = ClientConfiguration()
        configuration.retry = RetryPolicy(maxAttempts: 3, backoff: Backoff(base: 0.01, maximum: 0.05))
        await #expect(throws: BuilderOSError.tunnelError(status: 502)) { try await server.client(configuration: configuration).status() }
        #expect(server.state.requestCount(path: "/api/status") == 3)
        faults.tunnelErrorStatus = 530
        server.state.faults = faults
        await #expect(throws: BuilderOSError.tunnelError(status: 530)) { try await server.client(configuration: configuration).health() }
        #expect(server.state.requestCount(path: "/api/health") == 1)
        // 401 is final too.
        faults.tunnelErrorStatus = nil
        server.state.faults = faults
        await #expect(throws: BuilderOSError.unauthorized) { try await server.client(key: "bad", configuration: configuration).capsules() }
        #expect(server.state.requestCount(path: "/api/capsules") == 1)
        await server.stop()
    }

    @Test func refusedConnectionIsRetriedThenReported() async throws {
        let address = try ServerAddress.parse("http://127.0.0.1:\(Loopback.closedPort())")
        var configuration = ClientConfiguration()
        configuration.retry = RetryPolicy(maxAttempts: 2, backoff: Backoff(base: 0.01, maximum: 0.01))
        await #expect(throws: BuilderOSError.connectionRefused) {
            try await RESTClient(server: address, apiKey: "k", configuration: configuration).status()
        }
    }

    @Test func unknownHostIsReportedAsSuch() async throws {
        let address = try ServerAddress.parse("https://no-such-host.invalid")
        var configuration = ClientConfiguration()
        configuration.retry = .never
        await #expect(throws: BuilderOSError.hostNotFound(host: "no-such-host.invalid")) {
            try await RESTClient(server: address, apiKey: "k", configuration: configuration).status()
        }
    }

    @Test func slowServerHitsTheTotalTimeout() async throws {
        var faults = Faults()
        faults.responseDelayMilliseconds = 3000
        let server = try await RunningServer.start(faults: faults)
        var configuration = ClientConfiguration()
        configuration.requestTimeout = 0.5
        configuration.retry = .never
        await #expect(throws: BuilderOSError.timedOut) { try await server.client(configuration: configuration).status() }
        await server.stop()
    }

    @Test func oversizedRepliesAreRefused() async throws {
        let server = try await RunningServer.start()
        var configuration = ClientConfiguration()
        configuration.maxResponseBytes = 64
        await #expect(throws: BuilderOSError.responseTooLarge) { try await server.client(configuration: configuration).capsules() }
        await server.stop()
    }

    @Test func cancellationEndsTheRequest() async throws {
        var faults = Faults()
        faults.responseDelayMilliseconds = 5000
        let server = try await RunningServer.start(faults: faults)
        let client = server.client()
        let task = Task { try await client.status() }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect(throws: BuilderOSError.cancelled) { try await task.value }
        await server.stop()
    }

    @Test func connectionsAreReused() async throws {
        let server = try await RunningServer.start()
        let request = HTTPRequest(
            method: .get, url: server.address.url(path: "/api/status"), headers: [],
            connectTimeout: 5, totalTimeout: 5, maxResponseBytes: 1 << 20)
        // Its own engine: on the shared one, parallel tests could push this connection out of the cache.
        let engine = try #require(CurlEngine(maxConnections: 4))
        let first = try await engine.perform(request)
        let second = try await engine.perform(request)
        #expect(first.status == 200 && second.status == 200)
        #expect(first.connectionsOpened == 1)
        #expect(second.connectionsOpened == 0)
        await server.stop()
    }

    @Test func apiKeyIsSentOnEveryCall() async throws {
        // Capsules require the key; status does not check it but must still carry it (contract).
        let server = try await RunningServer.start()
        let echo = HTTPRequest(
            method: .get, url: server.address.url(path: "/api/capsules"), headers: [("X-API-Key", server.key)],
            connectTimeout: 5, totalTimeout: 5, maxResponseBytes: 1 << 20)
        #expect(try await #require(CurlEngine.shared).perform(echo).status == 200)
        _ = try await server.client().capsules()
        await server.stop()
    }
}

struct RESTClientMoreRouteTests {
    @Test func closeSessionUsesTheAuthorizationHeader() async throws {
        let server = try await RunningServer.start()
        let client = ChatClient(server: server.address, apiKey: server.key, agent: .codex)
        let log = EventLog(client)
        await client.start()
        let session = "dev-codex-\(UUID().uuidString.lowercased())"
        _ = await client.send(OutgoingChatMessage(content: "hi", sessionId: session, deviceId: "dev", agent: .codex))
        #expect(await log.wait { $0.contains { if case .finished = $0 { true } else { false } } })
        await client.stop()
        let listed = try await server.client().sessions()
        #expect(listed.sessions.contains { $0.sessionId == session && $0.agentType == "codex" && $0.messageCount == 1 })
        try await server.client().closeSession(agent: .codex, sessionID: session)
        #expect(try await server.client().sessions().sessions.allSatisfy { $0.sessionId != session })
        await #expect(throws: BuilderOSError.unauthorized) {
            try await server.client(key: "wrong").closeSession(agent: .codex, sessionID: session)
        }
        await server.stop()
    }

    @Test func rejectAllKeysSwitch() async throws {
        var faults = Faults()
        faults.rejectAllKeys = true
        let server = try await RunningServer.start(faults: faults)
        await #expect(throws: BuilderOSError.unauthorized) { try await server.client().capsules() }
        let report = await ConnectionTest(server: server.address, apiKey: server.key).run()
        #expect(report.outcomes[.key] == .failed(.unauthorized))
        await server.stop()
    }
}
