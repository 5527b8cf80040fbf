import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// The tray indicator against the FAKE StatusNotifierWatcher and host (`Tests/Fakes/fake-sni-watcher.py`), which
/// logs what a panel would see and clicks what a user would. Runs in a D-Bus session of its own.
@MainActor
enum TrayScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["indicator": run, "hiddenStart": hiddenStart]

    @MainActor
    struct FakeTray {
        let d: Driver
        let log: String

        var events: [[String: Any]] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }

        func events(_ kind: String) -> [[String: Any]] { events.filter { $0["event"] as? String == kind } }
        func last(_ kind: String) -> [String: Any]? { events(kind).last }
        func signals(_ name: String) -> Int { events("signal").filter { $0["name"] as? String == name }.count }
        var icon: String? { (last("icon") ?? last("properties"))?["icon"] as? String }
        var labels: [String] { ((last("layout")?["items"] as? [[String: Any]]) ?? []).map { $0["label"] as? String ?? "?" } }

        @discardableResult
        func control(_ method: String, _ arguments: Variant = .tuple([])) async -> Variant? {
            guard
                let connection = g_application_get_dbus_connection(
                    UnsafeMutableRawPointer(d.app.application).assumingMemoryBound(to: GApplication.self))
            else { return nil }
            let reply = await DBusPeer.call(
                connection, destination: "app.builderos.Tests.FakeTray", path: "/app/builderos/Tests/FakeTray",
                interface: "app.builderos.Tests.FakeTray", method: method, arguments)
            if case .success(let value) = reply { return value }
            return nil
        }

        func click(_ label: String) async -> Bool { await control("Click", .tuple([.string(label)]))?[0]?.boolValue == true }
    }

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        let fake = FakeTray(d: d, log: c.options["tray-log"] ?? "")
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.expect(
            await d.wait {
                Set(fake.events("registered").compactMap { $0["watcher"] as? String })
                    == ["org.kde.StatusNotifierWatcher", "org.freedesktop.StatusNotifierWatcher"]
            },
            "the item registers with both the KDE and the freedesktop StatusNotifierWatcher")
        d.expect(await d.wait { fake.icon == "app.builderos.Desktop-connected" }, "the host sees the connected icon", "\(fake.icon ?? "-")")
        if let properties = fake.last("properties") {
            d.expect(
                properties["id"] as? String == BuilderOSKit.applicationID && properties["menu"] as? String == "/MenuBar",
                "Id and Menu are set", "\(properties)")
            let pixmaps = properties["pixmaps"] as? [[Int]] ?? []
            d.expect(
                pixmaps.count == 4 && pixmaps.allSatisfy { $0[0] == $0[1] && $0[2] == $0[0] * $0[1] * 4 },
                "the icon comes as ARGB pixmaps too (16, 22, 32, 48 px)", "\(pixmaps)")
        }
        // The window icon and the tray's pixmaps come from PNG renditions: no SVG renderer is loaded.
        d.expect(!ProcessScan.mapsLibrary("librsvg"), "librsvg is not loaded (the icons are PNGs)")
        let host = URL(string: c.server)?.host ?? "?"
        d.expect(
            await d.wait {
                (fake.last("tooltip") ?? fake.last("properties")).map {
                    ($0["tooltip_title"] as? String ?? $0["title"] as? String ?? "").contains("Connected")
                        && ($0["tooltip_body"] as? String ?? $0["body"] as? String ?? "").contains(host)
                        && ($0["tooltip_body"] as? String ?? $0["body"] as? String ?? "").contains(" ms")
                } ?? false
            }, "the tooltip names the state, the server and the latency", "\(fake.last("tooltip") ?? fake.last("properties") ?? [:])")
        let name = URLComponents(string: c.server).map { "\($0.host ?? ""):\($0.port ?? 0)" } ?? "?"
        let servers = fake.labels.filter { $0.contains(" — ") }
        d.expect(
            fake.labels.filter { !$0.contains(" — ") }
                == [
                    "_Hide BuilderOS", "", "_Add Server…", "", "_Disconnect", "_New Chat", "New _Terminal", "_Sleep Server…", "", "_Preferences",
                    "_Quit",
                ],
            "the menu: Open/Hide, the servers and Add Server…, Connect/Disconnect, New Chat, New Terminal, Sleep Server…, Preferences, Quit",
            "\(fake.labels)")
        d.expect(servers.contains("\(name) — Connected"), "the Servers section names the active server and its state", "\(servers)")
        if let secondName = c.options["second-name"] {
            await switchByTray(d, fake, main, to: secondName, from: name)
        }

        // Connection state drives the icon; D-Bus hears only about changes.
        // Signals from connecting may still be on their way (the host reads the icon when a signal arrives, so a late
        // one finds "connected" already): start counting once a second has passed without any.
        var settled = fake.signals("NewIcon")
        for _ in 0..<20 {
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            if fake.signals("NewIcon") == settled { break }
            settled = fake.signals("NewIcon")
        }
        let iconSignalsBefore = fake.signals("NewIcon")
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        d.expect(fake.signals("NewIcon") == iconSignalsBefore, "no NewIcon while nothing changes")
        let iconSignalsBeforeCycle = fake.signals("NewIcon")
        let clicked = Date()
        d.expect(await fake.click("Disconnect"), "the host can click Disconnect")
        d.expect(await d.wait { MainScenarios.indicator(d, main) == "Disconnected" }, "the menu's Disconnect disconnects")
        d.expect(await d.wait { fake.icon == "app.builderos.Desktop-disconnected" }, "the icon follows: disconnected")
        print("tray icon followed Disconnect after \(Int(Date().timeIntervalSince(clicked) * 1000)) ms")
        d.expect(await d.wait { fake.labels.contains("_Connect") }, "the menu now offers Connect (ItemsPropertiesUpdated)")
        d.expect(await fake.click("Connect"), "the host can click Connect")
        d.expect(await d.wait { fake.icon == "app.builderos.Desktop-connected" }, "connected again, and the icon says so")
        // Disconnected → connecting → connected: at most three changes (connecting may pass within one update).
        let cycle = fake.signals("NewIcon") - iconSignalsBeforeCycle
        d.expect((2...3).contains(cycle), "one NewIcon per change of state", "\(cycle)")

        let conversations = MainScenarios.history()?.conversations().count ?? 0
        d.expect(await fake.click("New Chat"), "the host can click New Chat")
        d.expect(await d.wait { (MainScenarios.history()?.conversations().count ?? 0) == conversations + 1 }, "New Chat starts a conversation")
        d.expect(await fake.click("New Terminal"), "the host can click New Terminal")
        d.expect(
            await d.wait { d.widget("terminal-page", in: main).map { gtk_widget_get_mapped($0) != 0 } == true },
            "New Terminal brings up the Terminal page")
        d.expect(await d.wait { fake.labels.contains("_Sleep Server…") && isEnabled(fake, "_Sleep Server…") }, "Sleep Server… is offered")
        d.expect(await fake.click("Sleep Server…"), "the host can click Sleep Server…")
        d.expect(await d.wait { d.window(named: "sleep-confirm") != nil }, "Sleep Server… asks first")
        if let confirm = d.window(named: "sleep-confirm") { d.click("cancel-button", in: confirm) }
        d.expect(await fake.click("Preferences"), "the host can click Preferences")
        d.expect(await d.wait { d.window(named: "preferences") != nil }, "Preferences opens")
        if let prefs = d.window(named: "preferences") {
            d.expect(d.isSensitive("background", in: prefs), "with a tray host, background mode is offered")
            gtk_window_destroy(gtkCast(prefs, to: GtkWindow.self))
        }

        // A click on the icon presents a window that is not in front. Headless mutter puts no window in
        // front until it has a keyboard (nothing has the focus); on Xvfb a presented window is in front.
        gtk_window_present(gtkCast(main, to: GtkWindow.self))
        if !d.onX11 {
            await fake.control("Activate", .tuple([.string("")]))
            await d.settle()
            d.expect(await d.wait { d.window(named: "main-window") != nil }, "Activate keeps a window that is not in front, and presents it")
        }
        // And hides the window in front, and brings it back.
        if let focused = await RealKeys.focus(main, d) {
            d.expect(focused, "the main window is in front")
            await fake.control("Activate", .tuple([.string("")]))
            d.expect(await d.wait { d.window(named: "main-window") == nil }, "Activate hides the window in front")
            d.expect(await d.wait { fake.labels.first == "_Open BuilderOS" }, "and the menu offers Open BuilderOS")
        } else {
            print("NOTE \(d.scenario): a click hiding the window in front is not checked: nothing here gives a window the focus (RealKeys)")
        }
        await fake.control("Activate", .tuple([.string("test-activation-token")]))
        d.expect(await d.wait { d.window(named: "main-window") != nil }, "Activate (with an activation token) shows it again")

        // Background mode: with a tray host and the preference on, closing the window keeps the app running.
        d.expect(d.app.backgroundModeAvailable, "the app knows there is a tray host")
        var settings = SettingsStore().load()
        settings.keepRunningInBackground = true
        try? SettingsStore().save(settings)
        gtk_window_close(gtkCast(main, to: GtkWindow.self))
        d.expect(await d.wait { d.window(named: "main-window") == nil }, "closing the window hides it (keep running in the background)")
        d.expect(
            await d.wait { fake.icon == "app.builderos.Desktop-connected" && fake.labels.first == "_Open BuilderOS" },
            "still connected in the tray")
        d.expect(await fake.click("Open BuilderOS"), "the host can click Open BuilderOS")
        d.expect(await d.wait { d.window(named: "main-window") != nil }, "Open BuilderOS brings the window back")

        // The watcher restarts: the item registers again with the new one.
        await fake.control("Restart")
        d.expect(
            await d.wait { fake.events("registered").contains { $0["generation"] as? Int == 2 } },
            "the item registers again after the watcher restarts")
        d.expect(await d.wait { fake.events("properties").contains { $0["generation"] as? Int == 2 } }, "and the new host reads it")

        // No watcher, no host: a hidden window comes back (nothing else could show it), background mode is not
        // offered, and the preference says why.
        d.expect(await d.wait { d.app.backgroundModeAvailable }, "the app knows the new host")
        gtk_window_close(gtkCast(main, to: GtkWindow.self))
        d.expect(await d.wait { d.window(named: "main-window") == nil }, "hidden again")
        await fake.control("Stop")
        d.expect(await d.wait { d.window(named: "main-window") != nil }, "when the tray host goes away, the hidden window comes back")
        try? await Task.sleep(nanoseconds: 500_000_000)
        g_action_group_activate_action(OpaquePointer(d.app.application), "preferences", nil)
        if await d.wait(until: { d.window(named: "preferences") != nil }), let prefs = d.window(named: "preferences") {
            d.expect(!d.isSensitive("background", in: prefs), "without a tray host, background mode is not offered")
            d.expect(d.texts(prefs).contains("no system tray is running"), "and the preference says why")
            await d.screenshot(prefs, "preferences-no-tray")
            gtk_window_destroy(gtkCast(prefs, to: GtkWindow.self))
        }
        await fake.control("Start")
        d.expect(await d.wait { fake.events("registered").contains { $0["generation"] as? Int == 3 } }, "and registers when a watcher is back")

        // Quit from the menu ends the app: the verdict is printed as it shuts down.
        Signals.connect(UnsafeMutableRawPointer(d.app.application), "shutdown") {
            d.expect(true, "Quit in the tray menu quits the app")
            print("\(d.passed) passed, \(d.failed) failed")
            exit(d.failed == 0 ? 0 : 1)
        }
        d.expect(await fake.click("Quit"), "the host can click Quit")
        try? await Task.sleep(nanoseconds: 5_000_000_000)
        d.expect(false, "Quit in the tray menu quits the app")
    }

    /// `--hidden` with a tray host: no window at start; a click on the icon opens it.
    static func hiddenStart(_ d: Driver, _ c: ScenarioContext) async {
        let fake = FakeTray(d: d, log: c.options["tray-log"] ?? "")
        d.expect(await d.wait { fake.icon == "app.builderos.Desktop-connected" }, "started hidden, the tray shows the connection")
        try? await Task.sleep(nanoseconds: 1_000_000_000)
        d.expect(d.window(named: "main-window") == nil, "and no window opened")
        await fake.control("Activate", .tuple([.string("")]))
        d.expect(await d.wait { d.window(named: "main-window") != nil }, "a click on the tray icon opens the window")
    }

    /// The Servers section: the second server is listed with its state (a light status request answered), a click
    /// switches the window to it and moves the check; a click on the first switches back.
    private static func switchByTray(_ d: Driver, _ fake: FakeTray, _ main: Widget, to second: String, from first: String) async {
        func label(_ name: String) -> String? { fake.labels.first { $0.hasPrefix(name + " — ") } }
        func checked(_ name: String) -> Bool {
            ((fake.last("layout")?["items"] as? [[String: Any]]) ?? []).contains {
                ($0["label"] as? String ?? "").hasPrefix(name + " — ") && $0["toggle"] as? Int == 1
            }
        }
        d.expect(label(second) != nil && checked(first) && !checked(second), "both servers are listed, the active one checked", "\(fake.labels)")
        d.expect(
            await d.wait { label(second) == "\(second) — " + d.translated("Online") }, "the other server's state comes from a status request",
            "\(fake.labels)")
        guard let secondLabel = label(second) else { return }
        d.expect(await fake.click(secondLabel.replacingOccurrences(of: "_", with: "")), "the host can click a server")
        d.expect(await d.wait { ServersScenario.switcherName(d, main) == second }, "the window switches to it", ServersScenario.switcherName(d, main))
        d.expect(await d.wait { checked(second) && !checked(first) }, "the check moves to it")
        d.expect(await d.wait { label(second) == "\(second) — " + d.translated("Connected") }, "and its state is its connection's", "\(fake.labels)")
        guard let firstLabel = label(first) else { return }
        d.expect(await fake.click(firstLabel.replacingOccurrences(of: "_", with: "")), "the host can click the first server")
        d.expect(await d.wait { ServersScenario.switcherName(d, main) == first }, "back on the first server")
        d.expect(await d.wait { MainScenarios.indicator(d, main) == d.translated("Connected") }, "connected")
    }

    private static func isEnabled(_ fake: FakeTray, _ label: String) -> Bool {
        ((fake.last("layout")?["items"] as? [[String: Any]]) ?? []).first { $0["label"] as? String == label }?["enabled"] as? Bool ?? false
    }
}
