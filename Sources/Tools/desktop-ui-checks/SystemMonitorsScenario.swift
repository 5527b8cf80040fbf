import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// What the desktop knows, through GIO's own monitors (`DesktopUI/App/SystemMonitors`), from the
/// real services: the network coming and going (`offline`: in a network of its own,
/// `meson-helpers/with-private-network`, the server at this computer's address there, the scenario
/// running it on the port the test chose) and the power mode (`powerSaver`: power-profiles-daemon,
/// `meson-helpers/with-power-profiles`).
@MainActor
enum SystemMonitorsScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["offline": offline, "powerSaver": powerSaver]

    /// This computer's address in the private network (the script's).
    static let host = "10.77.0.2"

    /// Adds or removes the default route: the network comes or goes.
    static func route(_ up: Bool) -> Bool {
        Subprocess.succeeds(
            "/bin/bash",
            [
                "--noprofile", "--norc", SourceTree.root.appendingPathComponent("meson-helpers/with-private-network").path, "--route",
                up ? "up" : "down",
            ])
    }

    /// A second server added while offline; the first, parked in the background, follows the network as well:
    /// its server gone while offline, it waits (the switcher says Offline) until the route is back.
    static func parkedSession(_ d: Driver, _ main: Widget, _ c: ScenarioContext, first server: inout ResilienceScenarios.Server) async {
        var other = c
        other.options["port"] = "8081"
        other.server = "http://\(host):8081"
        guard let second = try? ResilienceScenarios.Server(other, extra: ["--host", host]) else { return d.expect(false, "a second server starts") }
        defer { second.kill() }
        d.activate("app.add-server", in: main)
        guard await d.wait(until: { d.window(named: "setup-wizard") != nil }), let wizard = d.window(named: "setup-wizard") else {
            return d.expect(false, "Add Server… opens the setup")
        }
        d.click("primary", in: wizard)
        await d.settle()
        d.type(other.server, into: "server-entry", in: wizard)
        await d.settle()
        d.click("primary", in: wizard)
        await d.settle()
        d.type(c.key, into: "key-entry", in: wizard)
        d.press("key-entry", in: wizard)
        d.expect(await d.wait { d.texts(wizard).contains("Stored in your keyring.") }, "offline, a second server on this network is added")
        d.click("primary", in: wizard)
        await d.settle()
        d.click("open-builderos", in: wizard)
        d.expect(
            await d.wait { ServersScenario.switcherName(d, main) == "\(host):8081" && MainScenarios.indicator(d, main) == "Offline" },
            "the window shows it, waiting for the network like the first", ServersScenario.switcherName(d, main))
        // The open switcher's row for the first server says its state in its tooltip and spoken name, and follows it.
        d.activate("win.switch-server", in: main)
        let parked = { () -> String in
            guard let list = d.widget("server-list", in: main),
                let row = ServersScenario.rows(d, list).first(where: { d.texts($0).contains("\(host):8080") }),
                let tip = gtk_widget_get_tooltip_text(row)
            else { return "" }
            return String(cString: tip)
        }
        d.expect(await d.wait { parked() == "Connected" }, "the switcher lists the first server, parked and connected", parked())
        server.kill()
        d.expect(await d.wait { parked().contains("Offline") }, "the first server, parked and gone while offline, waits: Offline", parked())
        guard let restarted = try? ResilienceScenarios.Server(c, extra: ["--host", host]) else { return d.expect(false, "the first server restarts") }
        server = restarted
        d.expect(!(await d.wait(seconds: 3) { !parked().contains("Offline") }), "while offline it attempts nothing", parked())
        d.expect(route(true), "the default route is back")
        d.expect(await d.wait(seconds: 5) { parked().contains("Connected") }, "and the parked session connects at once", parked())
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

    static func offline(_ d: Driver, _ c: ScenarioContext) async {
        let monitor = g_network_monitor_get_default()
        let online = { g_network_monitor_get_network_available(monitor) != 0 }
        d.expect(!online(), "the network starts without a default route: GIO's monitor says offline")
        guard var server = try? ResilienceScenarios.Server(c, extra: ["--host", host]) else { return d.expect(false, "the server starts") }
        defer { server.kill() }
        // Setting up needs no default route: the server is on this computer's own network.
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
        // The socket may open before the monitor's first answer: a connection that works is kept.
        _ = await d.wait(seconds: 5) { indicator() == "Connected" }
        server.kill()
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
        d.expect(await d.wait { button() == "Disconnect" && indicator() == d.translated("Offline") }, "Connect waits for the network again", button())
        d.activate(PageID.chat.windowAction, in: main)
        d.typeText("written offline", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(
            await d.wait { d.named(prefix: "message-user-queued", in: main).count == 1 && d.texts(main).contains("Waiting to send") },
            "a message written offline waits in the outbox")

        guard let restarted = try? ResilienceScenarios.Server(c, extra: ["--host", host]) else { return d.expect(false, "the server restarts") }
        server = restarted
        // Offline, no attempt is made, though the server is back: a reconnection would take under a second.
        d.expect(!(await d.wait(seconds: 3) { indicator() != "Offline" }), "while offline no connection is attempted", indicator())

        d.expect(route(true), "the default route is added")
        d.expect(await d.wait(seconds: 5) { online() }, "GIO's monitor says online")
        d.expect(await d.wait(seconds: 5) { indicator() == "Connected" }, "the network back, the app connects at once", indicator())
        d.expect(
            await d.wait { d.named(prefix: "message-user-queued", in: main).isEmpty && MainScenarios.completedReplies(d, main) == 1 },
            "and the message written offline is delivered and answered")
        d.expect(
            ResilienceScenarios.loggedContents(c) == ["written offline"], "the server received it once", "\(ResilienceScenarios.loggedContents(c))")

        d.expect(route(false), "the default route is removed again")
        d.expect(!(await d.wait(seconds: 2) { indicator() != "Connected" }), "a connection that still works is kept while offline", indicator())
        await parkedSession(d, main, c, first: &server)
    }
}
