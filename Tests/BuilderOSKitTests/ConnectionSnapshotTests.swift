import Testing

@testable import BuilderOSKit

struct ConnectionSnapshotTests {
    let server = try! ServerAddress.parse("https://builderos.example.com")

    @Test func indicatorFollowsTheSocketAndTheUsersIntent() {
        var s = ConnectionSnapshot(server: server, wantsConnection: false)
        #expect(s.indicator == .disconnected && s.stateText == "Disconnected")
        s.wantsConnection = true
        #expect(s.indicator == .connecting)
        s.socket = .authenticating
        #expect(s.indicator == .connecting)
        s.socket = .connected
        #expect(s.indicator == .connected && s.accessibleText == "Connection status: Connected")
        s.socket = .waitingToReconnect(after: .connectionRefused, delay: 2)
        #expect(s.indicator == .connecting && s.stateText == "Reconnecting…")
        s.socket = .failed(.unauthorized)
        #expect(s.indicator == .failed)
        #expect(s.help?.contains("rejected the API key") == true)
    }

    @Test func theButtonOffersWhatCanBeDone() {
        var s = ConnectionSnapshot(server: server, wantsConnection: false)
        #expect(s.action == .connect)
        s.wantsConnection = true
        #expect(s.action == .wait)
        s.socket = .connected
        #expect(s.action == .disconnect)
        s.socket = .failed(.unauthorized)
        #expect(s.action == .retry)
        // Offline while wanting a connection: waiting for the network, which Disconnect ends.
        s.socket = .waitingToReconnect(after: .connectionLost, delay: 1)
        s.offline = true
        #expect(s.stateText == "Offline" && s.action == .disconnect)
        #expect(s.help?.contains("connects again as soon as the network is back") == true)
        s.wantsConnection = false
        s.socket = .disconnected
        #expect(s.stateText == "Offline" && s.action == .connect)
        #expect(s.help?.contains("connects again") != true, "after a Disconnect nothing connects by itself")
    }

    @Test func helpComesFromTheLastFailureUntilConnected() {
        var s = ConnectionSnapshot(server: server, wantsConnection: true)
        s.lastFailure = .connectionRefused
        s.socket = .waitingToReconnect(after: .connectionRefused, delay: 1)
        #expect(s.help?.contains("refused") == true)
        s.socket = .connected
        #expect(s.help == nil)
        s.socket = .waitingToReconnect(after: .connectionLost, delay: 1)
        s.lastFailure = .connectionLost
        s.wantsConnection = false
        s.socket = .disconnected
        #expect(s.help == nil, "after a Disconnect the last failure is history, not advice")
        s.latencyMilliseconds = 501
        #expect(s.isSlow)
    }
}
