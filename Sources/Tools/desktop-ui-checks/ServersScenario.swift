import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// Three servers set up by the test (`mini`, `studio` and `gone`, studio active; mini's and studio's histories
/// seeded with a conversation of their own; gone's key removed from the keyring). The header's switcher names the
/// active server; Ctrl+Shift+S lists them with their dots and Add Server…; a reply streaming from studio keeps
/// streaming into studio's history while the window shows mini, in the same window; Add Server… refuses an address
/// already set up, then adds `lab`; Replace Key…, Forget Server…, and gone asking for its key again.
@MainActor
enum ServersScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["switching": switching]

    static func switching(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d), let miniURL = c.options["mini"], let studioFile = c.options["studio-history"]
        else { return d.expect(false, "the main window and the scenario's options") }
        d.activate(PageID.chat.windowAction, in: main)
        await d.settle()
        d.expect(await d.wait { switcherName(d, main) == "studio" }, "the switcher names the active server", switcherName(d, main))
        d.expect(await d.wait { d.texts(main).contains("Only on studio") }, "studio's conversations are listed", d.texts(main))
        d.expect(!d.texts(main).contains("Only on mini"), "and not mini's")

        // A reply starts streaming from studio…
        d.popup("new-chat", in: main)
        d.click("new-chat-jarvis", in: main)
        await d.settle()
        d.typeText("Tell me a long story", into: "message-input", in: main)
        d.click("send", in: main)
        d.expect(await d.wait { !d.named(prefix: "message-assistant-streaming", in: main).isEmpty }, "studio's reply is streaming")

        // …and the user switches to mini with the keyboard.
        d.activate("win.switch-server", in: main)
        guard await d.wait(until: { d.widget("server-list", in: main) != nil }), let list = d.widget("server-list", in: main) else {
            return d.expect(false, "Ctrl+Shift+S opens the server list")
        }
        let listed = rows(d, list)
        d.expect(
            listed.count == 3 && ["mini", "studio", "gone"].allSatisfy { d.texts(list).contains($0) }, "every server is listed", d.texts(list))
        d.expect(d.widget("add-server", in: list) != nil, "and Add Server…")
        if let popover = gtk_widget_get_ancestor(list, gtk_popover_get_type()) {
            await shot(d, popover, "switcher", c)
        }
        guard let miniRow = listed.first(where: { d.texts($0).contains("mini") }) else { return d.expect(false, "mini has a row") }
        gtk_widget_activate(miniRow)
        let shown = await d.wait { switcherName(d, main) == "mini" && d.texts(main).contains("Only on mini") }
        d.expect(shown, "the switch shows mini's conversations", d.texts(main))
        d.expect(d.window(named: "main-window") == main, "in the same window")
        d.expect(!d.texts(main).contains("Only on studio"), "studio's are not shown")
        d.expect(SettingsStore().load().activeServer?.name == "mini", "mini is the active server now")
        d.expect(await d.wait { MainScenarios.indicator(d, main) == d.translated("Connected") }, "mini connects")
        d.expect(pagesNamed(d, main), "the header names the pages as before", d.widget("page-switcher", in: main).map { d.texts($0) } ?? "")
        await shot(d, main, "switched", c)
        await HeaderChecks.narrowAndWide(d, main, screenshot: (c.options["screens"].map { "\($0)-" } ?? "") + "header")

        // studio's reply went on in the background, into studio's history.
        let finished = await d.wait(seconds: 60) {
            let store = try? HistoryStore(path: studioFile)
            let messages = store.map { h in h.conversations().flatMap { h.messages(in: $0.id) } } ?? []
            return messages.contains { $0.role == .assistant && $0.state == .complete && $0.text.count > 20 }
        }
        d.expect(finished, "studio's reply completed in its history while mini was shown")
        await clickReplyNotification(d, main, c)

        // Add Server… refuses mini's address before testing it.
        d.activate("app.add-server", in: main)
        guard await d.wait(until: { d.window(named: "setup-wizard") != nil }), let wizard = d.window(named: "setup-wizard") else {
            return d.expect(false, "Add Server… opens the setup")
        }
        d.click("primary", in: wizard)
        await d.settle()
        d.type(miniURL, into: "server-entry", in: wizard)
        await d.settle()
        let refusal = d.translated("This server is already set up, as “%@”.").replacingOccurrences(of: "%@", with: "mini")
        d.expect(d.texts(wizard).contains(refusal), "an address already set up is refused with a sentence", d.texts(wizard))
        d.expect(!d.isSensitive("primary", in: wizard), "and Continue waits for another address")
        await shot(d, wizard, "add-refused", c)
        await addThird(d, main, wizard, c)

        // And back to studio: its conversation with the finished reply is there at once.
        d.activate("win.switch-server", in: main)
        if await d.wait(until: { d.widget("server-list", in: main) != nil }), let list = d.widget("server-list", in: main),
            let studioRow = rows(d, list).first(where: { d.texts($0).contains("studio") })
        {
            gtk_widget_activate(studioRow)
        }
        d.expect(
            await d.wait { switcherName(d, main) == "studio" && d.texts(main).contains("Tell me a long story") }, "back on studio",
            switcherName(d, main) + " | " + d.texts(main))
        await replaceKey(d, main, c)
        await forget(d, main, c)
        await signInAgain(d, main)
    }

    /// studio's reply, finished in the background, was announced with studio's name (a FAKE notification daemon logs
    /// it: no daemon runs here); clicking it as a user would (through the fake, which sends what a daemon sends)
    /// shows studio again with that conversation open. Then back to mini, where the scenario goes on.
    static func clickReplyNotification(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async {
        guard let path = c.options["notification-log"] else { return d.expect(false, "the scenario knows the notification log") }
        let log = NotificationLog(path: path, driver: d)
        let title = String(format: d.translated("%@ replied on %@"), "Jarvis", "studio")
        guard await d.wait(until: { log.entries.contains { $0.summary == title } }), let reply = log.entries.last(where: { $0.summary == title })
        else { return d.expect(false, "the background reply is announced with its server's name", title + " | \(log.titles)") }
        await log.click(reply)
        d.expect(
            await d.wait {
                switcherName(d, main) == "studio"
                    && d.widget("conversation-title", in: main).map { d.texts($0).contains("Tell me a long story") } == true
            }, "clicking it shows studio with the reply's conversation open", switcherName(d, main))
        let mini = SettingsStore().load().servers.first { $0.name == "mini" }
        mini.map { d.app.switchServer(to: $0.id) }
        d.expect(await d.wait { switcherName(d, main) == "mini" }, "and back to mini")
    }

    /// `gone`'s key is no longer in the keyring (the test removed it): switching to it asks for its key over the
    /// window, and leaving that leaves the other servers a click away.
    static func signInAgain(_ d: Driver, _ main: Widget) async {
        let servers = SettingsStore().load().servers
        guard let gone = servers.first(where: { $0.name == "gone" }), let studio = servers.first(where: { $0.name == "studio" }) else {
            return d.expect(false, "gone and studio are set up")
        }
        d.app.switchServer(to: gone.id)
        d.expect(await d.wait { d.window(named: "setup-wizard") != nil }, "a server whose key is gone asks for it again")
        d.expect(d.window(named: "main-window") == main, "over the window, which stays")
        if let wizard = d.window(named: "setup-wizard") {
            d.expect(d.widget("key-entry", in: wizard).map { gtk_widget_get_mapped($0) != 0 } == true, "at the key step")
            gtk_window_destroy(gtkCast(wizard, to: GtkWindow.self))
        }
        d.app.switchServer(to: studio.id)
        d.expect(await d.wait { switcherName(d, main) == "studio" }, "the other servers are still a click away")
        d.expect(await d.wait { MainScenarios.indicator(d, main) == d.translated("Connected") }, "and connected")
    }

    /// The same setup then adds a third server, `lab`: its key is tested and stored, and the window switches to it.
    static func addThird(_ d: Driver, _ main: Widget, _ wizard: Widget, _ c: ScenarioContext) async {
        guard let lab = c.options["lab"], let keyFile = c.options["lab-key-file"],
            let key = try? String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        else { return d.expect(false, "the scenario knows the third server") }
        d.type(lab, into: "server-entry", in: wizard)
        await d.settle()
        d.expect(await d.wait { d.isSensitive("primary", in: wizard) }, "another address may go on")
        d.click("primary", in: wizard)
        await d.settle()
        d.type(key, into: "key-entry", in: wizard)
        d.press("key-entry", in: wizard)
        d.expect(await d.wait { d.texts(wizard).contains(d.translated("Stored in your keyring.")) }, "the third server's key passes and is stored")
        d.click("primary", in: wizard)
        await d.settle()
        d.click("open-builderos", in: wizard)
        let name = URLComponents(string: lab).map { "\($0.host ?? ""):\($0.port ?? 0)" } ?? "?"
        d.expect(await d.wait { switcherName(d, main) == name }, "the window switches to the new server", switcherName(d, main))
        d.expect(d.window(named: "setup-wizard") == nil && d.window(named: "main-window") == main, "in the same window, the setup closed")
        d.expect(SettingsStore().load().servers.count == 4, "four servers are set up")
        d.expect(await d.wait { MainScenarios.indicator(d, main) == d.translated("Connected") }, "it connects")
    }

    /// Replace Key… on studio: a refused key changes nothing and says so; the right one replaces it, and the
    /// session connects again with it.
    static func replaceKey(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async {
        d.activate(PageID.connection.windowAction, in: main)
        await d.settle()
        d.click("replace-key", in: main)
        guard await d.wait(until: { d.window(named: "replace-key") != nil }), let dialog = d.window(named: "replace-key") else {
            return d.expect(false, "Replace Key… asks for the new key")
        }
        d.type("not-studios-key-0123456789", into: "new-key-entry", in: dialog)
        d.click("confirm-button", in: dialog)
        let nothing = d.translated("Nothing was changed: the old key stays.")
        d.expect(await d.wait { d.texts(dialog).contains(nothing) }, "a refused key changes nothing and says so", d.texts(dialog))
        await shot(d, dialog, "replace-refused", c)
        d.expect(MainScenarios.indicator(d, main) == d.translated("Connected"), "the session goes on with the old key")
        d.type(c.key, into: "new-key-entry", in: dialog)
        d.click("confirm-button", in: dialog)
        d.expect(await d.wait { d.window(named: "replace-key") == nil }, "the right key replaces it")
        d.expect(await d.wait { MainScenarios.indicator(d, main) == d.translated("Connected") }, "and the session connects with it")
    }

    /// Forget Server… on mini, its history ticked: it names what goes, and the window moves to studio.
    static func forget(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async {
        guard let miniFile = c.options["mini-history"] else { return d.expect(false, "the scenario knows mini's history file") }
        guard let mini = SettingsStore().load().servers.first(where: { $0.name == "mini" }) else { return d.expect(false, "mini is set up") }
        d.app.switchServer(to: mini.id)
        d.expect(await d.wait { switcherName(d, main) == "mini" }, "on mini again")
        guard await pageWindowOfMini(d, main, c) else { return }
        d.activate("app.sign-out", in: main)
        guard await d.wait(until: { d.window(named: "sign-out-confirm") != nil }), let dialog = d.window(named: "sign-out-confirm") else {
            return d.expect(false, "Forget Server… asks first")
        }
        let title = d.translated("Forget “%@”?").replacingOccurrences(of: "%@", with: "mini")
        d.expect(d.texts(dialog).contains(title), "it names the server", d.texts(dialog))
        await shot(d, dialog, "forget", c)
        if let option = d.widget("confirm-option", in: dialog) { gtk_check_button_set_active(gtkCast(option, to: GtkCheckButton.self), 1) }
        d.click("confirm-button", in: dialog)
        d.expect(await d.wait { switcherName(d, main) == "studio" }, "the window moves to the server that remains", switcherName(d, main))
        let names = SettingsStore().load().servers.map(\.name)
        d.expect(!names.contains("mini") && names.contains("studio"), "mini is no longer set up", "\(names)")
        d.expect(!FileManager.default.fileExists(atPath: miniFile), "its history was deleted, as ticked")
        d.expect(await d.wait { d.window(named: "page-window-dashboard") == nil }, "and mini's page window closed with it")
    }

    /// Open in New Window on mini: the page's window names mini, and still does once the main window shows studio.
    static func pageWindowOfMini(_ d: Driver, _ main: Widget, _ c: ScenarioContext) async -> Bool {
        guard let studio = SettingsStore().load().servers.first(where: { $0.name == "studio" }) else {
            d.expect(false, "studio is set up")
            return false
        }
        d.activate(PageID.dashboard.windowAction, in: main)
        await d.settle()
        d.activate("win.open-page-window", in: main)
        guard await d.wait(until: { d.window(named: "page-window-dashboard") != nil }), let pageWindow = d.window(named: "page-window-dashboard")
        else {
            d.expect(false, "Open in New Window opens the Dashboard in its own window")
            return false
        }
        let named = {
            let title = gtk_window_get_title(gtkCast(pageWindow, to: GtkWindow.self)).map { String(cString: $0) } ?? ""
            let label = d.widget("page-window-server", in: pageWindow).map { d.texts($0) } ?? ""
            return label == "mini" && title.contains("mini") ? "mini" : "\(label) | \(title)"
        }
        d.expect(named() == "mini", "the page's window names its server, in its header and its title", named())
        d.app.switchServer(to: studio.id)
        d.expect(await d.wait { switcherName(d, main) == "studio" }, "the main window switches to studio")
        d.expect(
            d.window(named: "page-window-dashboard") == pageWindow && named() == "mini", "the page's window still shows mini, and says so",
            named())
        await shot(d, pageWindow, "page-window", c)
        d.app.switchServer(to: SettingsStore().load().servers.first { $0.name == "mini" }?.id ?? "")
        d.expect(await d.wait { switcherName(d, main) == "mini" }, "back on mini")
        return true
    }

    /// A screenshot, its name prefixed for a run in another language (`--screens german`).
    static func shot(_ d: Driver, _ widget: Widget, _ name: String, _ c: ScenarioContext) async {
        await d.screenshot(widget, (c.options["screens"].map { "\($0)-" } ?? "") + name)
    }

    /// The list's server rows (named `server-ID`; the list itself is `server-list`).
    static func rows(_ d: Driver, _ list: Widget) -> [Widget] {
        d.named(prefix: "server-", in: list).filter { $0 != list }
    }

    /// The header's page switcher names the pages, and nothing else: a switch rebuilds the header, and news
    /// reaching the header before must not write into what replaced it.
    static func pagesNamed(_ d: Driver, _ main: Widget) -> Bool {
        let titles = ["Chat", "Dashboard", "Connection", "Power", "Preview", "Terminal"].map { d.translated($0) }
        return d.widget("page-switcher", in: main).map { d.texts($0) } == titles.joined(separator: "\n")
    }

    static func switcherName(_ d: Driver, _ main: Widget) -> String {
        guard let switcher = d.widget("server-switcher", in: main) else { return "" }
        return d.texts(switcher).components(separatedBy: "\n").last ?? ""
    }
}
