import Foundation
import Testing

@testable import BuilderOSKit

/// When Sleep and Wake can work (one rule for the Power page and the tray), and the wait for a woken
/// server — with a fake probe and no clock.
struct PowerModelTests {
    let server = try! ServerAddress.parse("https://builder.example.com")

    func snapshot(connected: Bool, system: Bool?) -> ConnectionSnapshot {
        var s = ConnectionSnapshot(server: server, wantsConnection: true)
        s.socket = connected ? .connected : .disconnected
        s.systemServer = system
        return s
    }

    @Test func sleepNeedsAConnectedServerThatHasTheSystemRoutes() {
        #expect(PowerAvailability(snapshot: snapshot(connected: true, system: true), wakeOnLANConfigured: false).canSleep)
        #expect(
            PowerAvailability(snapshot: snapshot(connected: true, system: nil), wakeOnLANConfigured: false).canSleep,
            "not known yet: try, the server's answer settles it")
        let absent = PowerAvailability(snapshot: snapshot(connected: true, system: false), wakeOnLANConfigured: false)
        #expect(absent.sleepBlocked == "Sleep is not available on this server.")
        let offline = PowerAvailability(snapshot: snapshot(connected: false, system: true), wakeOnLANConfigured: false)
        #expect(offline.sleepBlocked == "Connect to the server to put it to sleep.")
    }

    @Test func wakeWorksFromAnywhereWithAMACAddressAndOtherwiseAsksTheServer() {
        for connected in [true, false] {
            for system in [true, false, nil] as [Bool?] {
                let withMAC = PowerAvailability(snapshot: snapshot(connected: connected, system: system), wakeOnLANConfigured: true)
                #expect(withMAC.canWake && withMAC.wakeNote == nil)
            }
        }
        let asks = PowerAvailability(snapshot: snapshot(connected: true, system: nil), wakeOnLANConfigured: false)
        #expect(asks.canWake && asks.wakeNote != nil, "the server will explain how it can be woken")
        #expect(!PowerAvailability(snapshot: snapshot(connected: false, system: true), wakeOnLANConfigured: false).canWake)
        #expect(
            PowerAvailability(snapshot: snapshot(connected: true, system: false), wakeOnLANConfigured: false).wakeBlocked?
                .hasPrefix("Wake is not available on this server.") == true)
    }

    @Test func theTrayOffersSleepByTheSameRule() {
        for connected in [true, false] {
            for system in [true, false, nil] as [Bool?] {
                let s = snapshot(connected: connected, system: system)
                #expect(TrayStatus(snapshot: s).canSleep == PowerAvailability(snapshot: s, wakeOnLANConfigured: false).canSleep)
            }
        }
    }

    final class Probe: @unchecked Sendable {
        private let lock = NSLock()
        private var asked = 0, paused = 0
        let answersAt: Int?
        init(answersAt: Int?) { self.answersAt = answersAt }
        var counts: (asked: Int, paused: Int) { lock.withLock { (asked, paused) } }
        func ask() -> Bool {
            lock.withLock {
                asked += 1; return asked == answersAt
            }
        }
        func pause() { lock.withLock { paused += 1 } }
    }

    @Test func theWakeWatchStopsAtTheFirstAnswer() async {
        let probe = Probe(answersAt: 3)
        #expect(await WakeWatch.untilAwake(probe: { probe.ask() }, pause: { probe.pause() }))
        #expect(probe.counts == (3, 2))
    }

    @Test func theWakeWatchGivesUpAfterItsAttempts() async {
        let probe = Probe(answersAt: nil)
        #expect(await WakeWatch.untilAwake(attempts: 5, probe: { probe.ask() }, pause: { probe.pause() }) == false)
        #expect(probe.counts == (5, 4), "no pause after the last try")
    }
}
