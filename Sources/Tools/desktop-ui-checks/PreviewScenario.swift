import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The Preview page against the reference server and its demo web page (on the Vite card's port,
/// 5173): probed cards, the custom port's rule, the live page in the web view with back and forward,
/// a failed load, Open in Browser (a stand-in browser the test registers), and — started through a
/// tunnel-like host name — the explanation and the preview host that fixes it.
@MainActor
enum PreviewScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["cardsAndBrowser": run, "tunnel": tunnel, "withoutWebKit": withoutWebKit]

    static func label(_ d: Driver, _ name: String, in window: Widget) -> String {
        d.widget(name, in: window).map { String(cString: gtk_label_get_text(OpaquePointer($0))) } ?? ""
    }

    static func cardText(_ d: Driver, _ port: Int, in window: Widget) -> String {
        d.widget("quick-link-\(port)", in: window).map { WidgetTree.visibleTexts(in: $0).joined(separator: " ") } ?? ""
    }

    /// Whether libwebkitgtk is mapped into this process (what linking it would cost at start-up).
    static func webKitMapped() -> Bool { ProcessScan.mapsLibrary("libwebkitgtk-6.0") }

    static func openPage(_ d: Driver, _ main: Widget) async {
        d.expect(d.accelerator(for: PageID.preview.windowAction) == "<Control>5", "Ctrl+5 opens Preview")
        d.activate(PageID.preview.windowAction, in: main)
        await d.settle()
    }

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        guard let demoPort = c.options["demo-port"].flatMap(Int.init), let closedPort = c.options["closed-port"],
            let apiPort = URLComponents(string: c.server)?.port, let opened = c.options["browser-log"]
        else {
            return d.expect(false, "the test passes the demo page's port, a closed port and the browser log")
        }
        d.expect(!WebView.isLoaded && !webKitMapped(), "WebKit is not in the process before a preview is opened")
        await openPage(d, main)
        d.expect(label(d, "preview-host", in: main) == "127.0.0.1", "the page previews the server's own address", label(d, "preview-host", in: main))
        d.expect(d.texts(main).contains("Preview Localhost"), "the empty state invites a choice")
        d.expect(
            await d.wait { cardText(d, demoPort, in: main).contains("Up · 200 · BuilderOS demo app") },
            "the card of the port with a dev server says it is up, with the page's title", cardText(d, demoPort, in: main))
        d.expect(QuickLink.all.allSatisfy { !cardText(d, $0.port, in: main).contains("Checking") }, "every card got an answer")
        d.expect(label(d, "preview-state", in: main).contains("dev server"), "the header sums the answers up", label(d, "preview-state", in: main))
        d.expect(!webKitMapped(), "probing loads no WebKit either")
        await d.screenshot(main, "preview")

        // The live page, inside the app.
        d.click("quick-link-\(demoPort)", in: main)
        d.expect(
            await d.wait { label(d, "preview-title", in: main) == "BuilderOS demo app" }, "the demo page loads in the web view with its title",
            label(d, "preview-title", in: main))
        d.expect(WebView.isLoaded && webKitMapped(), "WebKit is loaded once a page is opened")
        d.expect(d.widget("quick-link-\(demoPort)", in: main).map { gtk_widget_has_css_class($0, "active") != 0 } == true, "its card is highlighted")
        d.expect(!d.isSensitive("preview-back", in: main), "nothing to go back to yet")
        await d.settle()
        await d.screenshot(main, "preview-page")

        // The custom port's rule (after the picture of the page: the README shows it).
        d.type("70000", into: "preview-port", in: main)
        d.click("preview-go", in: main)
        d.expect(d.texts(main).contains("A port is a whole number from 1 to 65535."), "an impossible port is explained", d.texts(main))

        // A second page (the reference server's own port): back and forward move between them.
        d.type(String(apiPort), into: "preview-port", in: main)
        d.expect(!d.texts(main).contains("A port is a whole number from 1 to 65535."), "typing again takes the explanation away")
        d.press("preview-port", in: main)
        d.expect(
            await d.wait { label(d, "preview-address", in: main).contains(":\(apiPort)/") && d.isSensitive("preview-back", in: main) },
            "a custom port opens in the same view", label(d, "preview-address", in: main))
        d.click("preview-back", in: main)
        d.expect(await d.wait { label(d, "preview-title", in: main) == "BuilderOS demo app" }, "Back returns to the demo page")
        d.expect(await d.wait { d.isSensitive("preview-forward", in: main) }, "and Forward is offered")
        d.click("preview-forward", in: main)
        d.expect(await d.wait { label(d, "preview-address", in: main).contains(":\(apiPort)/") }, "Forward goes to the second page again")

        // Nothing listening: the design's error state, naming the address.
        d.type(closedPort, into: "preview-port", in: main)
        d.click("preview-go", in: main)
        d.expect(
            await d.wait { label(d, "preview-error", in: main).contains("Nothing is listening at http://127.0.0.1:\(closedPort)/") },
            "a refused load is explained", label(d, "preview-error", in: main))
        await d.screenshot(main, "preview-error")

        // Open in Browser hands the address to the desktop's browser.
        d.click("quick-link-\(demoPort)", in: main)
        // The failed load's view still holds the demo page's title: wait for the address too.
        d.expect(
            await d.wait {
                label(d, "preview-title", in: main) == "BuilderOS demo app" && label(d, "preview-address", in: main).contains(":\(demoPort)/")
            }, "the demo page again", label(d, "preview-address", in: main))
        d.click("preview-open-browser", in: main)
        d.expect(
            await d.wait { ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "").contains("http://127.0.0.1:\(demoPort)/") },
            "Open in Browser opens the page in the default browser")
        let hits = ProcessScan.processesMentioning(c.key)
        d.expect(hits.isEmpty, "no process (the web processes included) holds the API key", "\(hits)")
    }

    /// The server reached through a public host name (the test maps it to loopback).
    static func tunnel(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        await openPage(d, main)
        let texts = d.texts(main)
        d.expect(
            texts.contains("Previews need a direct path") && texts.contains("builder-tunnel.example.com"),
            "a tunnel-only server gets a plain explanation", texts)
        d.expect(!d.isSensitive("quick-link-3000", in: main) && !d.isSensitive("preview-port", in: main), "the links wait for a direct path")
        await d.screenshot(main, "preview-tunnel")
        d.click("preview-set-host", in: main)
        guard await d.wait(until: { d.window(named: "preferences") != nil }), let preferences = d.window(named: "preferences") else {
            return d.expect(false, "Set Preview Host opens the preferences")
        }
        d.type("http://127.0.0.1:3000", into: "preview-host-entry", in: preferences)
        await d.settle()
        d.expect(
            await d.wait { d.texts(preferences).contains("no http://, port or path") }, "a URL as preview host is explained", d.texts(preferences))
        d.type("127.0.0.1", into: "preview-host-entry", in: preferences)
        if let entry = d.widget("preview-host-entry", in: preferences) { gtk_widget_grab_focus(entry) }  // scrolls it into view
        await d.settle()
        await d.screenshot(preferences, "preferences-preview-host")
        gtk_window_destroy(gtkCast(preferences, to: GtkWindow.self))
        d.expect(
            await d.wait { label(d, "preview-host", in: main) == "127.0.0.1" && d.texts(main).contains("Preview Localhost") },
            "the preview host applies at once", d.texts(main))
        d.expect(
            await d.wait {
                QuickLink.all.allSatisfy { !cardText(d, $0.port, in: main).isEmpty && !cardText(d, $0.port, in: main).contains("Checking") }
            },
            "and the cards are probed there")
    }

    /// WebKitGTK is a recommended package, not a dependency: without it (the test hides its library),
    /// opening a page says what to install and offers the browser, and nothing else breaks.
    static func withoutWebKit(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d), let demoPort = c.options["demo-port"] else { return }
        await openPage(d, main)
        d.type(demoPort, into: "preview-port", in: main)
        d.click("preview-go", in: main)
        await d.expectShown(
            "WebKitGTK 6.0, which is not installed (Debian package libwebkitgtk-6.0-4)", "without WebKitGTK the page says what to install", in: main)
        await d.screenshot(main, "preview-without-webkit")
    }
}
