import Foundation
import ReferenceServer
import Synchronization
import Testing
import ToolSupport

@testable import BuilderOSKit

struct ConnectionTestTests {
    /// Timeouts far above any real answer: the whole suite on two cores has starved a 10 s key check.
    static let patient: ClientConfiguration = {
        var configuration = ClientConfiguration()
        (configuration.connectTimeout, configuration.requestTimeout) = (60, 60)
        return configuration
    }()

    @Test func happyPathReportsEverything() async throws {
        let server = try await RunningServer.start()
        let seen = Mutex<[ConnectionTestStep]>([])
        let report = await ConnectionTest(server: server.address, apiKey: server.key, configuration: Self.patient).run { step, outcome in
            if outcome == .running { seen.withLock { $0.append(step) } }
        }
        #expect(report.passed && report.firstFailure == nil)
        #expect(report.version == ReferenceServer.version)
        #expect((report.latencyMilliseconds ?? -1) >= 0)
        #expect(report.systemAvailable == true)
        #expect(seen.withLock { $0 } == ConnectionTestStep.allCases)
        await server.stop()
    }

    /// A server that stops answering right after the WebSocket upgrade: the key check gives up after its timeout, and
    /// the socket's close does not wait on a close handshake that never comes (the channel ends itself a second after
    /// sending its close frame; libsoup alone waits several seconds more). The 30 s watchdog turns a hang into a failure.
    @Test func aServerThatFallsSilentCannotHoldTheKeyCheck() async throws {
        let server = try await RunningServer.start()
        let proxy = try FreezingProxy(to: server.port)
        var configuration = ClientConfiguration()
        configuration.connectTimeout = 1
        let test = ConnectionTest(server: try ServerAddress.parse("http://127.0.0.1:\(proxy.port)"), apiKey: server.key, configuration: configuration)
        let outcome = Mutex<BuilderOSError??>(nil)
        Task {
            let error = await test.checkKey(); outcome.withLock { $0 = .some(error) }
        }
        for _ in 0..<300 where outcome.withLock({ $0 == nil }) { try await Task.sleep(nanoseconds: 100_000_000) }
        #expect(outcome.withLock { $0 } == .some(.timedOut))
        // The proxy's frozen connections first: the server's graceful stop waits for its connections.
        proxy.stop()
        await server.stop()
    }

    @Test func wrongKeyFailsTheKeyStepAndSkipsTheRest() async throws {
        let server = try await RunningServer.start()
        let report = await ConnectionTest(server: server.address, apiKey: "wrong", configuration: Self.patient).run()
        #expect(!report.passed)
        #expect(report.outcomes[.reachability] == .passed(detail: server.address.baseURL))
        #expect(report.outcomes[.key] == .failed(.unauthorized))
        #expect(report.outcomes[.versionAndLatency] == .skipped && report.outcomes[.systemFeatures] == .skipped)
        #expect(report.firstFailure?.error.fixIt != nil)
        await server.stop()
    }

    @Test func unreachableServerFailsFirstStep() async throws {
        let address = try ServerAddress.parse("http://127.0.0.1:\(Loopback.closedPort())")
        let report = await ConnectionTest(server: address, apiKey: "k").run()
        #expect(report.outcomes[.reachability] == .failed(.connectionRefused))
        #expect(report.firstFailure?.step == .reachability)
    }

    @Test func systemServerAbsentPassesWithANote() async throws {
        var faults = Faults()
        faults.systemRoutesAbsent = true
        let server = try await RunningServer.start(faults: faults)
        let report = await ConnectionTest(server: server.address, apiKey: server.key, configuration: Self.patient).run()
        #expect(report.passed)
        #expect(report.systemAvailable == false)
        guard case .passedWithNote(let note) = report.outcomes[.systemFeatures] else { Issue.record("no note"); return }
        #expect(note.contains("not available on this server"))
        await server.stop()
    }

    @Test func tunnelErrorPageFailsReachability() async throws {
        var faults = Faults()
        faults.tunnelErrorStatus = 530
        let server = try await RunningServer.start(faults: faults)
        let report = await ConnectionTest(server: server.address, apiKey: server.key, configuration: Self.patient).run()
        #expect(report.outcomes[.reachability] == .failed(.tunnelError(status: 530)))
        await server.stop()
    }
}
