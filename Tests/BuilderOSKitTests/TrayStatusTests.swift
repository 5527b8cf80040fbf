import Foundation
import Testing

@testable import BuilderOSKit

/// What the tray shows and offers, from the one connection snapshot.
struct TrayStatusTests {
    let server = try! ServerAddress.parse("https://builder.example.com")

    @Test func beforeSignInTheTrayOffersOnlyOpenPreferencesAndQuit() {
        let status = TrayStatus(snapshot: nil)
        #expect(status.iconName == "app.builderos.Desktop-disconnected" && !status.signedIn)
        let menu = TrayMenu(status: status, windowShown: false)
        #expect(menu.items.filter(\.enabled).compactMap(\.action) == [.open, .preferences, .quit])
        #expect(menu.item(id: 1)?.label == "_Open BuilderOS")
    }

    @Test func connectedShowsServerAndLatencyAndOffersDisconnectAndSleep() {
        var snapshot = ConnectionSnapshot(server: server, wantsConnection: true)
        snapshot.socket = .connected
        snapshot.latencyMilliseconds = 41.6
        snapshot.systemServer = true
        let status = TrayStatus(snapshot: snapshot)
        #expect(status.iconName == "app.builderos.Desktop-connected")
        #expect(status.tooltipTitle == "BuilderOS — Connected" && status.tooltipBody == "builder.example.com · 42 ms")
        let menu = TrayMenu(status: status, windowShown: true)
        #expect(
            menu.items.map(\.label) == [
                "_Hide BuilderOS", "", "_Disconnect", "_New Chat", "New _Terminal", "_Sleep Server…", "", "_Preferences", "_Quit",
            ])
        #expect(menu.items.allSatisfy { $0.enabled })
    }

    @Test func disconnectedOffersConnectAndNoSleep() {
        let status = TrayStatus(snapshot: ConnectionSnapshot(server: server, wantsConnection: false))
        #expect(status.indicator == .disconnected && status.tooltipTitle.hasSuffix("Disconnected"))
        let menu = TrayMenu(status: status, windowShown: true)
        #expect(menu.item(id: 3)?.action == .connect && menu.item(id: 5)?.enabled == false)
    }

    @Test func aFailureIsExplainedInTheTooltip() {
        var snapshot = ConnectionSnapshot(server: server, wantsConnection: true)
        snapshot.socket = .failed(.unauthorized)
        let status = TrayStatus(snapshot: snapshot)
        #expect(status.iconName == "app.builderos.Desktop-failed")
        #expect(status.tooltipBody.hasPrefix("builder.example.com\n") && status.tooltipBody.count > "builder.example.com\n".count)
    }

    @Test func latencyChangesTheStatusButNotTheIcon() {
        var a = ConnectionSnapshot(server: server, wantsConnection: true)
        a.socket = .connected
        a.latencyMilliseconds = 40
        var b = a
        b.latencyMilliseconds = 90
        let (x, y) = (TrayStatus(snapshot: a), TrayStatus(snapshot: b))
        #expect(x != y && x.iconName == y.iconName && x.tooltipTitle == y.tooltipTitle)
    }

    @Test func theServersSectionListsEachServerWithItsStateTheActiveOneChecked() throws {
        var connected = ConnectionSnapshot(server: server, wantsConnection: true)
        connected.socket = .connected
        let mini = ServerProfile(address: server.baseURL, customName: "mini", historyFile: "history.sqlite3")
        let studio = ServerProfile(address: "http://100.64.0.5:8080", customName: "studio", historyFile: "h2")
        let lab = ServerProfile(address: "http://10.0.0.9:8080", customName: "lab", historyFile: "h3")
        let entries = [
            ServerEntry(profile: mini, active: true, snapshot: connected, probe: nil),
            ServerEntry(profile: studio, active: false, snapshot: nil, probe: .unreachable(.connectionRefused)),
            ServerEntry(profile: lab, active: false, snapshot: nil, probe: nil),
        ]
        #expect(entries.map(\.indicator) == [.connected, .disconnected, nil])
        let menu = TrayMenu(status: TrayStatus(snapshot: connected), windowShown: true, servers: entries)
        #expect(
            menu.items.map(\.label).prefix(7) == [
                "_Hide BuilderOS", "", "mini — Connected", "studio — Unreachable", "lab — Not checked yet", "_Add Server…", "",
            ])
        #expect(menu.items.compactMap(\.checked) == [true, false, false])
        #expect(menu.item(id: 101)?.action == .switchServer(id: studio.id) && menu.item(id: 10)?.action == .addServer)
        // No server set up: no section.
        #expect(!TrayMenu(status: TrayStatus(snapshot: nil), windowShown: false).items.contains { $0.action == .addServer })
    }

    @Test func aServerWithoutARouteReadsOfflineAsASessionOfItWould() {
        let far = ServerProfile(address: "http://10.78.0.1:8080", customName: "far", historyFile: "h")
        let entry = ServerEntry(profile: far, active: false, snapshot: nil, probe: .unreachable(.networkUnreachable))
        var offline = ConnectionSnapshot(server: try! ServerAddress.parse(far.address), wantsConnection: true)
        offline.offline = true
        #expect(entry.stateText == offline.stateText && entry.indicator == .disconnected)
        #expect(ServerEntry(profile: far, active: false, snapshot: nil, probe: .unreachable(.timedOut)).stateText == "Unreachable")
    }

    @Test func otherServersAreAskedUnlessSavingPowerWhereverTheActiveOneIs() {
        var snapshot = ConnectionSnapshot(server: server, wantsConnection: true)
        #expect(ServerEntry.pollsOthers(snapshot) && ServerEntry.pollsOthers(nil))
        snapshot.powerSaver = true
        #expect(!ServerEntry.pollsOthers(snapshot))
        // No route to the active server says nothing of the others' routes.
        snapshot.powerSaver = false
        snapshot.offline = true
        #expect(ServerEntry.pollsOthers(snapshot))
    }
}
