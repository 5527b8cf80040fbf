import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// What the desktop knows, through GIO's own monitors (`DesktopUI/App/SystemMonitors`), from the
/// real services: the network coming and going (`offline`: in a network of its own,
/// `meson-helpers/with-private-network`, with servers on the router there, the scenario running them
/// on the port the test chose and the next) and the power mode (`powerSaver`: power-profiles-daemon,
/// `meson-helpers/with-power-profiles`).
@MainActor
enum SystemMonitorsScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["offline": offline, "powerSaver": powerSaver]

    /// The router, on this computer's own network (the script's): a server there is reachable without a default route.
    static let nearHost = "10.77.0.1"
    /// The router's network beyond it, reachable only through the default route.
    static let farHost = "10.78.0.1"

    /// Adds or removes the default route: the network comes or goes.
    static func route(_ up: Bool) -> Bool {
        Subprocess.succeeds(
            "/bin/bash",
            [
                "--noprofile", "--norc", SourceTree.root.appendingPathComponent("meson-helpers/with-private-network").path, "--route",
                up ? "up" : "down",
            ])
    }

    /// builderos-server on the router (the network namespace the script names), at `host` and `port`.
    static func server(_ c: ScenarioContext, _ host: String, port: String) -> ResilienceScenarios.Server? {
        var c = c
        c.options["port"] = port
        return try? ResilienceScenarios.Server(
            c, extra: ["--host", host], network: ProcessInfo.processInfo.environment["BUILDEROS_ROUTER_NETWORK"])
    }

    /// Adds a server through Add Server…, as a user does, and opens it in the main window.
    static func addServer(_ d: Driver, _ main: Widget, _ address: String, key: String) async -> Bool {
        d.activate("app.add-server", in: main)
        guard await d.wait(until: { d.window(named: "setup-wizard") != nil }), let wizard = d.window(named: "setup-wizard") else {
            d.expect(false, "Add Server… opens the setup")
            return false
        }
        d.click("primary", in: wizard)
        await d.settle()
        d.type(address, into: "server-entry", in: wizard)
        await d.settle()
        d.click("primary", in: wizard)
        await d.settle()
        d.type(key, into: "key-entry", in: wizard)
        d.press("key-entry", in: wizard)
        let stored = await d.wait { d.texts(wizard).contains("Stored in your keyring.") }
        d.expect(stored, "\(address) is added", d.texts(wizard))
        d.click("primary", in: wizard)
        await d.settle()
        d.click("open-builderos", in: wizard)
        return stored
    }

    /// Without a default route: the server on this computer's network (the router) is set up, connects and
    /// reconnects. One beyond the router, added while the route is up, is Offline once it goes: no attempts,
    /// a message waiting in its outbox, everything delivered the moment the route is back. Then the same in
    /// the background (`inTheBackground`).
    static func offline(_ d: Driver, _ c: ScenarioContext) async {
        let monitor = g_network_monitor_get_default()
        let online = { g_network_monitor_get_network_available(monitor) != 0 }
        d.expect(!online(), "the network starts without a default route: GIO's monitor says offline")
        let nearPort = c.options["port"] ?? "8080"
        guard var near = server(c, nearHost, port: nearPort) else { return d.expect(false, "the server on this network starts") }
        defer { near.kill() }
        guard let wizard = await WizardScenarios.reachTest(d, c, screenshots: false) else { return }
        d.press("key-entry", in: wizard)
        d.expect(await d.wait { d.texts(wizard).contains("Stored in your keyring.") }, "offline, the wizard reaches a server on this network")
        d.click("primary", in: wizard)
        await d.settle()
        d.click("open-builderos", in: wizard)
        guard await d.wait(until: { d.window(named: "main-window") != nil }), let main = d.window(named: "main-window") else {
            return d.expect(false, "the main window opens")
        }
        let indicator = { MainScenarios.indicator(d, main) }
        d.expect(
            await d.wait { indicator() == d.translated("Connected") }, "and the app connects to it: GIO's monitor knows a route to it",
            indicator())
        near.kill()
        d.expect(
            await d.wait { indicator() == d.translated("Reconnecting…") }, "the server gone, the app tries again: Reconnecting…, not Offline",
            indicator())
        guard let nearAgain = server(c, nearHost, port: nearPort) else { return d.expect(false, "the server on this network restarts") }
        near = nearAgain
        d.expect(await d.wait { indicator() == d.translated("Connected") }, "and reconnects without a default route", indicator())

        d.expect(route(true), "the default route is added")
        d.expect(await d.wait(seconds: 5) { online() }, "GIO's monitor says online")
        let farPort = String((Int(nearPort) ?? 8080) + 1)
        guard var far = server(c, farHost, port: farPort) else { return d.expect(false, "the server beyond the router starts") }
        defer { far.kill() }
        guard await addServer(d, main, "http://\(farHost):\(farPort)", key: c.key) else { return }
        d.expect(
            await d.wait { ServersScenario.switcherName(d, main) == "\(farHost):\(farPort)" && indicator() == d.translated("Connected") },
            "the window shows the server beyond the router, connected", ServersScenario.switcherName(d, main) + " " + indicator())
        d.expect(
            ServersScenario.pagesNamed(d, main), "and its header names the pages as before",
            d.widget("page-switcher", in: main).map { d.texts($0) } ?? "")
        d.expect(route(false), "the default route is removed")
        d.expect(
            !(await d.wait(seconds: 2) { indicator() != d.translated("Connected") }), "a connection that still works is kept while offline",
            indicator())
        far.kill()
        d.expect(
            await d.wait { indicator() == d.translated("Offline") }, "the server gone while offline: the header says Offline, not Reconnecting…",
            indicator())
        d.activate(PageID.connection.windowAction, in: main)
        d.expect(
            await d.wait { d.texts(main).contains("This computer is offline.") }, "the Connection page says why and what happens next",
            d.texts(main))
        await d.screenshot(main, "offline")
        let button = { d.widget("connect-button", in: main).map { d.texts($0) } ?? "" }
        d.expect(button() == "Disconnect", "waiting for the network, the page offers to stop waiting", button())
        d.click("connect-button", in: main)
        d.expect(await d.wait { button() == "Connect" }, "Disconnect stops the wait, and the page offers Connect", button())
        d.expect(
            !d.texts(main).contains("connects again as soon as") && d.texts(main).contains("You are disconnected."),
            "and no longer promises to connect when the network is back", d.texts(main))
        d.click("connect-button", in: main)
        d.expect(
            await d.wait { button() == "Disconnect" && indicator() == d.translated("Offline") }, "Connect waits for the network again", button())
        d.activate(PageID.chat.windowAction, in: main)
        d.typeText("written offline", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(
            await d.wait { d.named(prefix: "message-user-queued", in: main).count == 1 && d.texts(main).contains("Waiting to send") },
            "a message written offline waits in the outbox")
        await serverWithoutSession(d, main, c)

        guard let farAgain = server(c, farHost, port: farPort) else { return d.expect(false, "the server beyond the router restarts") }
        far = farAgain
        // Offline, no attempt is made, though the server is back: a reconnection would take under a second.
        d.expect(!(await d.wait(seconds: 3) { indicator() != d.translated("Offline") }), "while offline no connection is attempted", indicator())

        d.expect(route(true), "the default route is added again")
        d.expect(await d.wait(seconds: 5) { online() }, "GIO's monitor says online")
        d.expect(
            await d.wait(seconds: 5) { indicator() == d.translated("Connected") }, "the network back, the app connects at once", indicator())
        d.expect(
            await d.wait { d.named(prefix: "message-user-queued", in: main).isEmpty && MainScenarios.completedReplies(d, main) == 1 },
            "and the message written offline is delivered and answered")
        d.expect(
            ResilienceScenarios.loggedContents(c) == ["written offline"], "the server received it once", "\(ResilienceScenarios.loggedContents(c))")
        await inTheBackground(d, main, c, far: &far, port: farPort)
    }

    /// A server on this network without a session, set up beside the app (as `builderos login` does) while the window
    /// shows the one beyond the router, offline: the refresh still asks it how it is — no route to the server shown
    /// says nothing of the routes to the others — and the switcher's row follows it.
    static func serverWithoutSession(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async {
        let port = String((Int(c.options["port"] ?? "8080") ?? 8080) + 2)
        guard let lan = server(c, nearHost, port: port), let address = try? ServerAddress.parse("http://\(nearHost):\(port)") else {
            return d.expect(false, "a third server, on this network, starts")
        }
        defer { lan.kill() }
        let answers = { Subprocess.succeeds("/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "1", "http://\(nearHost):\(port)/"]) }
        d.expect(await d.wait { answers() }, "lan answers")
        let store = SettingsStore()
        var settings = store.load()
        let shown = settings.activeServerID
        guard let profile = try? settings.addServer(address, name: "lan") else { return d.expect(false, "lan is added to the list") }
        settings.activeServerID = shown
        // Preferences' shortest interval: the next refresh comes within a wait.
        settings.autoRefreshSeconds = Int(RefreshSchedule.shortest)
        d.expect((try? store.save(settings)) != nil, "lan is set up beside the app")
        d.expect((try? await CredentialStore().store(key: c.key, for: address)) != nil, "with its key in the keyring")
        let state = { d.widget("server-\(profile.id)", in: main).flatMap { gtk_widget_get_tooltip_text($0) }.map { String(cString: $0) } ?? "" }
        d.activate("win.switch-server", in: main)
        d.expect(await d.wait { state() == d.translated("Online") }, "the switcher lists lan, asked as it opens: Online", state())
        if let switcher = d.widget("server-switcher", in: main) { gtk_menu_button_popdown(OpaquePointer(switcher)) }
        lan.kill()
        d.expect(
            await d.wait(seconds: RefreshSchedule.shortest + 10) { state() == d.translated("Unreachable") },
            "gone, lan is found so at the next refresh, though the server shown is offline", state())
    }

    /// Offline with the server on this network shown: it stays connected, and the one beyond the router, in the
    /// background, says Offline in the open switcher once it is gone, attempts nothing, and connects when the route is back.
    static func inTheBackground(_ d: Driver, _ main: Widget, _ c: ScenarioContext, far: inout ResilienceScenarios.Server, port: String) async {
        d.expect(route(false), "the default route is removed again")
        let near = "\(nearHost):\(c.options["port"] ?? "8080")"
        let row = { (name: String) -> Widget? in
            d.widget("server-list", in: main).flatMap { list in ServersScenario.rows(d, list).first { d.texts($0).contains(name) } }
        }
        d.activate("win.switch-server", in: main)
        guard await d.wait(until: { row(near) != nil }), let nearRow = row(near) else { return d.expect(false, "the switcher lists both") }
        gtk_widget_activate(nearRow)
        d.expect(
            await d.wait { ServersScenario.switcherName(d, main) == near && MainScenarios.indicator(d, main) == d.translated("Connected") },
            "back on the server on this network: connected, offline as the computer is", MainScenarios.indicator(d, main))
        d.activate("win.switch-server", in: main)
        let parked = { () -> String in
            guard let row = row("\(farHost):\(port)"), let tip = gtk_widget_get_tooltip_text(row) else { return "" }
            return String(cString: tip)
        }
        d.expect(
            await d.wait { parked() == d.translated("Connected") }, "the server beyond the router, in the background, is still connected", parked())
        far.kill()
        d.expect(await d.wait { parked().contains(d.translated("Offline")) }, "gone while offline, it waits: Offline", parked())
        guard let restarted = server(c, farHost, port: port) else { return d.expect(false, "the server beyond the router restarts") }
        far = restarted
        d.expect(!(await d.wait(seconds: 3) { !parked().contains(d.translated("Offline")) }), "while offline it attempts nothing", parked())
        d.expect(route(true), "the default route is back")
        d.expect(await d.wait(seconds: 5) { parked().contains(d.translated("Connected")) }, "and it connects at once", parked())
        d.expect(MainScenarios.indicator(d, main) == d.translated("Connected"), "the server shown stayed connected throughout")
        if let switcher = d.widget("server-switcher", in: main) { gtk_menu_button_popdown(OpaquePointer(switcher)) }
    }

    /// The desktop's power mode switched as GNOME's menu does, through power-profiles-daemon.
    static func powerSaver(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        let saving = { d.app.connection?.powerSaver == true }
        d.expect(!saving(), "in the balanced mode the app polls at its usual pace")
        d.expect(Subprocess.succeeds("/usr/bin/powerprofilesctl", ["set", "power-saver"]), "the desktop switches to power saver")
        d.expect(await d.wait { saving() }, "the app follows")
        d.expect(
            d.app.connection.map { !ServerEntry.pollsOthers($0) } == true, "and asks the servers without a session nothing until it ends")
        d.expect(MainScenarios.indicator(d, main) == "Connected", "the connection itself goes on")
        d.expect(Subprocess.succeeds("/usr/bin/powerprofilesctl", ["set", "balanced"]), "the desktop switches back")
        d.expect(await d.wait { !saving() }, "and so does the app")
    }
}
