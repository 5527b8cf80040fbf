import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// The whole setup in German (the test starts the app with LANGUAGE=de), then the main window: every step is
/// screenshotted, and the checks read the German texts, a plural form among them.
@MainActor
enum GermanScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["wizard": run]

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        guard let w = d.window(named: "setup-wizard") else { return d.expect(false, "der Assistent öffnet sich") }
        let welcome = d.texts(w)
        d.expect(
            welcome.contains("Schritt 1 von 5: Willkommen") && welcome.contains("Los geht’s")
                && welcome.contains("Ihr BuilderOS-Server auf Ihrem Desktop"),
            "the welcome step is German", welcome)
        await d.screenshot(w, "1-welcome")
        d.click("get-started", in: w)
        await d.settle()
        d.expect(
            await d.wait { d.texts(w).contains("Wo ist Ihr Server?") && d.texts(w).contains("Schritt 2 von 5") }, "the server step is German",
            d.texts(w))
        d.type(c.server, into: "server-entry", in: w)
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("BuilderOS verbindet sich mit \(c.server)") }, "the address check speaks German", d.texts(w))
        await d.screenshot(w, "2-server")
        d.press("server-entry", in: w)
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("Geben Sie Ihren API-Schlüssel ein") }, "the key step is German", d.texts(w))
        d.type(c.key, into: "key-entry", in: w)
        await d.screenshot(w, "3-key")
        d.press("key-entry", in: w)
        d.expect(await d.wait { d.texts(w).contains("In Ihrem Schlüsselbund gespeichert.") }, "the test passes, in German", d.texts(w))
        d.expect(d.texts(w).contains("Kapseln"), "the capsule count uses the German plural", d.texts(w))
        await d.screenshot(w, "4-test")
        d.click("primary", in: w)
        d.expect(await d.wait { d.texts(w).contains("Alles bereit!") }, "the done step is German", d.texts(w))
        await d.screenshot(w, "5-done")
        d.click("primary", in: w)
        guard await d.wait(until: { d.window(named: "main-window") != nil }), let main = d.window(named: "main-window") else {
            return d.expect(false, "the main window opens")
        }
        d.expect(await d.wait { MainScenarios.indicator(d, main) == "Verbunden" }, "the header says Verbunden", MainScenarios.indicator(d, main))
        d.expect(d.texts(main).contains("Übersicht") && d.texts(main).contains("Energie"), "the page switcher is German")
        await d.screenshot(main, "6-main")
        // German's page names are the longest the header has.
        await HeaderChecks.narrowAndWide(d, main, screenshot: "7-header")
    }
}
