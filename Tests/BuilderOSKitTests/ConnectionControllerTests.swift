import Foundation
import Testing

@testable import BuilderOSKit

/// The connection state machine on fakes: which socket moves the snapshot, what the status poll
/// fills in, what Offline and Disconnect ask of the sockets.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ConnectionControllerTests {
    func snapshots(_ rig: ChatRig) -> EventLog<ConnectionSnapshot> { EventLog(rig.connection.changes) }

    @Test func theSnapshotFollowsJarvisSocketAndTheStatusPoll() async {
        let rig = ChatRig(api: FakeBuilderOSAPI(latency: 42, hasSystemServer: false))
        let log = snapshots(rig)
        let c = rig.chat.createConversation(agent: .codex)
        let hi = rig.chat.send("hi", in: c.id)!
        rig.connection.connect()
        #expect(await rig.socket(.jarvis).nextCall() == .paused(false))
        #expect(await rig.socket(.jarvis).nextCall() == .start)
        _ = await log.next { $0.latencyMilliseconds == 42 }
        _ = await log.next { $0.systemServer == false }
        #expect(rig.connection.snapshot.indicator != .connected)

        #expect(await rig.nextSent(by: .codex) == "hi")
        await rig.socket(.codex).connect()
        // Its queued message marked sent shows the controller has seen Codex connect.
        await rig.waitFor(hi.id, .sent)
        #expect(rig.connection.snapshot.socket != .connected, "only the primary socket moves the snapshot")
        await rig.socket(.jarvis).connect()
        let connected = await log.next { $0.socket == .connected }
        #expect(connected.indicator == .connected && connected.lastSync != nil)

        await rig.socket(.jarvis).drop()
        let waiting = await log.next { if case .waitingToReconnect = $0.socket { true } else { false } }
        #expect(waiting.lastFailure == .connectionLost && waiting.indicator == .connecting)
    }

    @Test func aServerWithTheSystemRoutesIsNoted() async {
        let rig = ChatRig(api: FakeBuilderOSAPI(hasSystemServer: true))
        let log = snapshots(rig)
        rig.connection.connect()
        _ = await log.next { $0.systemServer == true }
    }

    @Test func whatASystemRouteShowsIsNotedAndOtherFailuresSayNothing() {
        let rig = ChatRig()
        #expect(rig.connection.snapshot.systemServer == nil)
        rig.connection.noteSystemRoute(Result<Void, BuilderOSError>.failure(.timedOut))
        #expect(rig.connection.snapshot.systemServer == nil, "a timeout says nothing about the routes")
        rig.connection.noteSystemRoute(Result<Void, BuilderOSError>.failure(.notAvailableOnServer))
        #expect(rig.connection.snapshot.systemServer == false, "404: no system server")
        rig.connection.noteSystemRoute(Result<Int, BuilderOSError>.success(1))
        #expect(rig.connection.snapshot.systemServer == true)
    }

    @Test func offlinePausesTheSocketsAndTheNetworkComingBackResumesThem() async {
        let rig = ChatRig()
        rig.connection.networkChanged(available: false)
        rig.connection.connect()
        #expect(rig.connection.snapshot.stateText == "Offline" && rig.connection.snapshot.indicator == .disconnected)
        #expect(rig.connection.snapshot.help?.contains("offline") == true)
        for agent in ChatAgent.allCases {
            #expect(await rig.socket(agent).nextCall() == .paused(true), "no attempts while offline")
            #expect(await rig.socket(agent).nextCall() == .start)
        }
        rig.connection.networkChanged(available: true)
        for agent in ChatAgent.allCases { #expect(await rig.socket(agent).nextCall() == .paused(false)) }
        #expect(rig.connection.snapshot.stateText != "Offline")
    }

    @Test func disconnectShutsEverySocketDownAndConnectMakesNewOnes() async {
        let rig = ChatRig()
        rig.connection.connect()
        let first = rig.sockets.current
        rig.connection.disconnect()
        #expect(rig.connection.snapshot.socket == .disconnected && !rig.connection.snapshot.wantsConnection)
        for socket in first.values { _ = await socket.nextCall { $0 == .shutdown } }
        rig.connection.disconnect()  // twice is once
        rig.connection.connect()
        #expect(rig.sockets.made == 4)
        #expect(rig.sockets.current.values.allSatisfy { socket in !first.values.contains { $0 === socket } })
    }

    @Test func retryDuringABackoffSkipsTheWaitInsteadOfStartingOver() async {
        let rig = ChatRig()
        let log = snapshots(rig)
        rig.connection.connect()
        await rig.socket(.jarvis).drop()
        _ = await log.next { if case .waitingToReconnect = $0.socket { true } else { false } }
        rig.connection.reconnect()
        #expect(await rig.socket(.jarvis).nextCall { $0 == .reconnectNow } == .reconnectNow)
        #expect(rig.sockets.made == 2, "the same sockets")
    }

    @Test func powerSaverSlowsThePollsAndThePagesRefresh() {
        let rig = ChatRig()
        rig.connection.powerSaverChanged(enabled: true)
        #expect(rig.connection.pollInterval == 120 && rig.connection.snapshot.powerSaver)
        #expect(rig.connection.refreshSchedule.powerSaver)
        rig.connection.powerSaverChanged(enabled: false)
        #expect(rig.connection.pollInterval == 30 && !rig.connection.snapshot.powerSaver)
    }
}
