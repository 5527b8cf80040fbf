import BuilderOSKit
import CGtk
import CTerminalView
import DesktopUI
import Foundation
import GtkKit

/// The Terminal page against the reference server's real PTY (the scenario runs the server itself,
/// with --enable-terminal, so it can kill and restart it): a command's output, the size following the
/// window, a Jarvis tab beside the shell, keys (tabs, zoom, find, copy and paste), the reconnect banner
/// with the scrollback kept, Disconnected with Reconnect when the server comes back without terminals,
/// and — against a server without terminals from the start — the plain explanation.
@MainActor
enum TerminalScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["tabs": run, "unavailable": unavailable, "withoutVTE": withoutVTE]

    /// The terminal on, with a shell that reads no startup files (checks must not depend on ~/.profile).
    static let serverArguments = ["--enable-terminal", "--terminal-shell", "/bin/bash --noprofile --norc -i"]

    static func vteMapped() -> Bool { ProcessScan.mapsLibrary("libvte-2.91-gtk4") }

    /// A tab as the checks see it: its VTE widget (through the same loader the app uses) and its banner.
    @MainActor struct Tab {
        let view: Widget
        var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(view) }
        var text: String {
            guard let text = bos_terminal_text(raw) else { return "" }
            defer { g_free(text) }
            return String(cString: text)
        }
        func type(_ text: String) { bos_terminal_type(raw, text) }
        var rows: Int { bos_terminal_rows(raw) }
        var columns: Int { bos_terminal_columns(raw) }
        /// Live when its banner is hidden.
        var isConnected: Bool {
            guard let overlay = gtk_widget_get_parent(view), let banner = WidgetTree.named("terminal-banner", in: overlay) else { return false }
            return gtk_widget_get_visible(banner) == 0
        }
        /// The tab's own banner and its button (each tab has one).
        var overlay: Widget? { gtk_widget_get_parent(view) }
        var offersReconnect: Bool {
            guard let overlay, let button = WidgetTree.named("terminal-reconnect", in: overlay) else { return false }
            return !isConnected && gtk_widget_get_visible(button) != 0
        }
    }

    static func tabs(_ d: Driver, _ main: Widget) -> [Tab] { d.named(prefix: "terminal-view", in: main).map(Tab.init) }

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        guard var server = try? ResilienceScenarios.Server(c, extra: TerminalScenario.serverArguments) else {
            return d.expect(false, "the server starts")
        }
        defer { server.kill() }
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.expect(!vteMapped(), "VTE is not in the process before a terminal opens")
        d.expect(d.accelerator(for: PageID.terminal.windowAction) == "<Control>6", "Ctrl+6 opens Terminal")
        d.activate(PageID.terminal.windowAction, in: main)
        guard await d.wait(until: { !tabs(d, main).isEmpty }), let shell = tabs(d, main).first else {
            return d.expect(false, "the page opens a shell tab")
        }
        d.expect(vteMapped(), "VTE is loaded with the first tab")
        d.expect(await d.wait { shell.isConnected }, "the tab connects")
        shell.type("echo ui-$((4*5))-done\r")
        d.expect(await d.wait { shell.text.contains("ui-20-done") }, "a command typed in the tab runs on the server", shell.text)

        // The shell follows the window's size.
        let before = (shell.rows, shell.columns)
        gtk_window_set_default_size(gtkCast(main, to: GtkWindow.self), 900, 640)
        // The compositor answers a resize when it will (on Wayland, a configure round trip; later on a busy machine).
        _ = await d.wait { (shell.rows, shell.columns) != before }
        await d.nextFrame(main)
        await d.settle()
        let (rows, cols) = (shell.rows, shell.columns)
        shell.type("stty size\r")
        d.expect(await d.wait { shell.text.contains("\(rows) \(cols)") }, "stty size on the server says \(rows) \(cols)", shell.text)
        await d.screenshot(main, "terminal")

        // A Jarvis tab beside it: its command is typed after connecting.
        d.click("terminal-new-jarvis", in: main)
        d.expect(await d.wait { tabs(d, main).count == 2 && tabs(d, main)[1].isConnected }, "New Tab → Jarvis opens a second tab")
        if tabs(d, main).count == 2 {
            let jarvis = tabs(d, main)[1]
            d.expect(await d.wait { jarvis.text.contains("claude") }, "the Jarvis tab types its command", jarvis.text)
            await d.screenshot(main, "terminal-two-tabs")
        }

        // The page's keys: Ctrl+Shift+T opens a tab, Ctrl+plus zooms (fewer cells), Ctrl+Shift+W asks before
        // closing a connected tab, Ctrl+0 resets the zoom.
        if let page = d.widget("terminal-page", in: main) {
            let ctrl = GDK_CONTROL_MASK.rawValue, shift = GDK_SHIFT_MASK.rawValue
            d.sendKey(0x54, to: page, modifiers: ctrl | shift)
            d.expect(await d.wait { tabs(d, main).count == 3 && tabs(d, main)[2].isConnected }, "Ctrl+Shift+T opens a shell tab")
            let third = tabs(d, main)[2]
            await d.settle()
            let columns = third.columns
            d.sendKey(0x2b, to: page, modifiers: ctrl)
            d.expect(await d.wait { third.columns < columns }, "Ctrl+plus zooms in (\(columns) → \(third.columns) columns)")
            d.sendKey(0x30, to: page, modifiers: ctrl)
            d.expect(await d.wait { third.columns == columns }, "Ctrl+0 resets the zoom")
            d.sendKey(0x57, to: page, modifiers: ctrl | shift)
            d.expect(await d.wait { d.window(named: "terminal-close-confirm") != nil }, "Ctrl+Shift+W on a connected tab asks first")
            if let confirm = d.window(named: "terminal-close-confirm") { d.click("confirm-button", in: confirm) }
            d.expect(await d.wait { tabs(d, main).count == 2 }, "and closes the tab")
            d.sendKey(0xff55, to: page, modifiers: ctrl)
            // Ctrl+Shift+F: find in the scrollback (VTE selects the match it finds).
            d.sendKey(0x46, to: page, modifiers: ctrl | shift)
            d.expect(
                await d.wait { d.widget("terminal-find", in: main).map { gtk_widget_get_mapped($0) != 0 } == true }, "Ctrl+Shift+F shows the find bar"
            )
            let find = d.widget("terminal-find", in: main)
            let notFound = { find.map { gtk_widget_has_css_class($0, "error") != 0 } ?? true }
            d.type("no-such-words", into: "terminal-find", in: main)
            d.expect(await d.wait { notFound() }, "words that are not there mark the find entry")
            // A compositor refuses the clipboard to a window without the focus: the selection's claim on
            // the primary clipboard too, after which VTE drops the selection it made. Headless mutter
            // gives a window the focus only once it has a keyboard (`RealKeys.focus`).
            let focused = await RealKeys.focus(main, d)
            d.type("ui-20", into: "terminal-find", in: main)
            d.expect(await d.wait { !notFound() }, "typing a word finds it in the scrollback")
            if let focused {
                d.expect(focused, "the window has the keyboard focus")
                d.expect(await d.wait { bos_terminal_has_selection(shell.raw) != 0 }, "the word found is selected")
                // Ctrl+Shift+C copies what was found, Ctrl+Shift+V pastes it back into the shell as typed input.
                d.sendKey(0x43, to: page, modifiers: ctrl | shift)
                d.expect(
                    d.clipboardText(of: page) == "ui-20", "Ctrl+Shift+C puts the selection on the clipboard", d.clipboardText(of: page) ?? "nothing")
                await d.settle()
                d.sendKey(0x56, to: page, modifiers: ctrl | shift)
                await d.settle()
                shell.type("\r")
                d.expect(
                    await d.wait { shell.text.contains("ui-20: command not found") },
                    "Ctrl+Shift+C then Ctrl+Shift+V types the copied text into the shell",
                    String(shell.text.suffix(200)).replacingOccurrences(of: "\n", with: "⏎"))
            } else {
                print("NOTE \(d.scenario): the selection, Copy and Paste are not checked: nothing here gives a window the focus (RealKeys)")
            }
        } else {
            d.expect(false, "the terminal page is there")
        }

        // The server goes away: the tab says Reconnecting… and keeps what it showed; back, it is live again.
        server.kill()
        d.expect(
            await d.wait { d.texts(main).contains("Reconnecting…") && !shell.isConnected }, "a lost connection shows Reconnecting…", d.texts(main))
        await d.screenshot(main, "terminal-reconnecting")
        guard let restarted = try? ResilienceScenarios.Server(c, extra: TerminalScenario.serverArguments) else {
            return d.expect(false, "the server restarts")
        }
        server = restarted
        d.expect(await d.wait(seconds: 40) { shell.isConnected }, "the tab reconnects when the server is back")
        d.expect(shell.text.contains("ui-20-done"), "the tab kept what it showed before the drop", shell.text)
        shell.type("echo back-$((5+5))\r")
        d.expect(await d.wait { shell.text.contains("back-10") }, "and the new shell runs commands")

        // Gone for good: after its attempts the tab says Disconnected and offers Reconnect, which works once
        // the server is back.
        server.kill()
        d.expect(await d.wait(seconds: 60) { shell.offersReconnect }, "after its attempts the tab offers Reconnect")
        d.expect(d.texts(main).contains("Disconnected — "), "and says Disconnected", d.texts(main))
        await d.screenshot(main, "terminal-disconnected")
        guard let again = try? ResilienceScenarios.Server(c, extra: TerminalScenario.serverArguments) else {
            return d.expect(false, "the server restarts")
        }
        server = again
        if let overlay = shell.overlay { d.click("terminal-reconnect", in: overlay) }
        d.expect(await d.wait { shell.isConnected }, "Reconnect connects again")
        shell.type("echo again-$((6+6))\r")
        d.expect(await d.wait { shell.text.contains("again-12") }, "and the shell runs commands", shell.text)

        // A web address in the output is a link (what Ctrl+click opens): after `clear` it is on the first row.
        shell.type("clear; echo https://example.com/bos-$((2+2))\r")
        d.expect(await d.wait { shell.text.hasPrefix("https://example.com/bos-4") }, "the address is printed on the first row", shell.text)
        let cell = Double(gtk_widget_get_width(shell.view)) / Double(max(shell.columns, 1))
        let row = Double(gtk_widget_get_height(shell.view)) / Double(max(shell.rows, 1))
        let link = bos_terminal_link_at(shell.raw, cell * 5.5, row / 2).map { text in
            defer { g_free(text) }; return String(cString: text)
        }
        d.expect(link == "https://example.com/bos-4", "VTE recognises the address as a link", link ?? "no link")
        d.expect(bos_terminal_link_at(shell.raw, cell * 5.5, row * 4.5) == nil, "and plain text is not one")

        // Back without terminals (it answers 404): the page explains instead of retrying.
        server.kill()
        guard let without = try? ResilienceScenarios.Server(c) else { return d.expect(false, "the server restarts without terminals") }
        server = without
        d.expect(
            await d.wait(seconds: 40) { d.texts(main).contains("Terminals are not available") },
            "a server that lost its terminals gets the explanation", d.texts(main))
        let hits = ProcessScan.processesMentioning(c.key)
        d.expect(hits.isEmpty, "no process (the shells included) holds the API key", "\(hits)")
    }

    static func unavailable(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate(PageID.terminal.windowAction, in: main)
        await d.expectShown("Terminals are not available", "a server without terminals gets a plain explanation", in: main)
        await d.screenshot(main, "terminal-unavailable")
    }

    /// VTE is a recommended package, not a dependency: without it (the test hides its library), the
    /// page says what to install, on a server that offers terminals.
    static func withoutVTE(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate(PageID.terminal.windowAction, in: main)
        await d.expectShown("VTE, which is not installed (Debian package libvte-2.91-gtk4-0", "without VTE the page says what to install", in: main)
        await d.screenshot(main, "terminal-without-vte")
    }
}
