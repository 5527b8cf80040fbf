import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// The wizard scenarios. Each starts from a fresh configuration (the test gives a private
/// XDG_CONFIG_HOME) with the session's real keyring (or none, for `keyring-unavailable`).
@MainActor
enum WizardScenarios: ScenarioGroup {
    static let scenarios: [String: Scenario] = [
        "happyPath": happyPath, "returning": returning, "malformedAddress": malformedURL,
        "unreachable": { await failingTest($0, $1, expected: "The server refused the connection.", backTo: "Where is your server?") },
        "wrongKey": { await failingTest($0, $1, expected: "The server rejected the API key.", backTo: "Enter your API key") },
        "systemAbsent": systemAbsent, "keyringUnavailable": keyringUnavailable, "keyGone": keyGone,
        "untrustedCertificate": untrustedCertificate,
    ]

    /// A server with a self-signed certificate (`openssl s_server`, not BuilderOS): the test says why and offers to
    /// trust an authority; with the certificate chosen (`--authority`) the test runs again and passes the handshake,
    /// failing only further on (it is no BuilderOS server). Verification is never switched off.
    static func untrustedCertificate(_ d: Driver, _ c: ScenarioContext) async {
        guard let w = d.window(named: "setup-wizard"), let authority = c.options["authority"] else {
            return d.expect(false, "the wizard and the scenario's authority")
        }
        d.click("get-started", in: w)
        await d.settle()
        d.type(c.server, into: "server-entry", in: w)
        d.press("server-entry", in: w)
        await d.settle()
        d.type(c.key, into: "key-entry", in: w)
        d.press("key-entry", in: w)
        let offered = { d.widget("trust-authority", in: w).map { gtk_widget_is_visible($0) != 0 } == true }
        d.expect(await d.wait { offered() }, "an untrusted certificate offers to trust an authority", d.texts(w))
        let reason = d.texts(w)
        d.expect(
            reason.contains(d.translated("The server's certificate is self-signed or issued by an authority this computer does not trust."))
                || reason.contains(d.translated("The server's certificate is self-signed, so this computer cannot tell it from an impostor's.")),
            "it says why", reason)
        await d.screenshot(w, "untrusted")
        d.click("trust-authority", in: w)
        d.expect(await d.chooseFile(authority), "the file chooser asks for the authority")
        let trusting = String(format: d.translated("Trusting the authorities in %@ for this server."), authority)
        d.expect(
            await d.wait {
                d.texts(w).contains(trusting) && !offered()
                    && d.texts(w).contains(d.translated("Check that the address points to a BuilderOS server, not another website."))
            },
            "trusting it, the handshake passes and the test fails only on what s_server is not", d.texts(w))
    }

    /// Welcome → server → key, with checks and screenshots on the way; returns the wizard.
    static func reachTest(_ d: Driver, _ c: ScenarioContext, screenshots: Bool) async -> Widget? {
        guard let w = d.window(named: "setup-wizard") else { d.expect(false, "the wizard opens on first run"); return nil }
        let welcome = d.texts(w)
        d.expect(welcome.contains("BuilderOS") && welcome.contains("Get Started"), "welcome shows the name and Get Started", welcome)
        d.expect(welcome.contains("Step 1 of 5"), "the step indicator says step 1 of 5")
        d.expect(d.hasFocus(within: w), "a control has focus on the welcome step")
        if screenshots { await d.screenshot(w, "1-welcome") }
        d.click("get-started", in: w)
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("Where is your server?") }, "Get Started leads to the server step")
        d.expect(d.texts(w).contains("Step 2 of 5"), "the step indicator says step 2 of 5")
        d.expect(!d.isSensitive("primary", in: w), "Continue waits for an address")
        d.type("  \(c.server)/  ", into: "server-entry", in: w)
        await d.settle()
        d.expect(
            await d.wait { d.texts(w).contains("BuilderOS will connect to \(c.server)") },
            "a pasted address with spaces and a trailing / is normalised",
            d.texts(w))
        if screenshots { await d.screenshot(w, "2-server") }
        d.press("server-entry", in: w)  // Enter advances
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("Enter your API key") }, "Enter on the address leads to the key step")
        d.expect(d.texts(w).contains(ServerKeyHint.command), "the key step shows where to find the key")
        // A paste that cannot be a key (here: two lines) is explained, and Continue waits.
        d.type("abcdefgh\nX-Injected: yes", into: "key-entry", in: w)
        await d.settle()
        d.expect(
            await d.wait { d.texts(w).contains("The API key contains a line break or another control character") },
            "a key with a line break is explained", d.texts(w))
        d.expect(!d.isSensitive("primary", in: w), "Continue stays off for what cannot be a key")
        if screenshots { await d.screenshot(w, "3-key-invalid") }
        d.type(c.key, into: "key-entry", in: w)
        if let entry = d.widget("key-entry", in: w) {
            d.expect(gtk_entry_get_visibility(gtkCast(entry, to: GtkEntry.self)) == 0, "the key is hidden while typed")
        }
        d.expect(!d.texts(w).contains("control character") && d.isSensitive("primary", in: w), "a real key clears the message")
        if screenshots { await d.screenshot(w, "3-key") }
        return w
    }

    static func happyPath(_ d: Driver, _ c: ScenarioContext) async {
        guard let w = await reachTest(d, c, screenshots: true) else { return }
        if let entry = d.widget("key-entry", in: w), let reveal = d.widget("reveal-key", in: w) {
            Signals.emit(UnsafeMutableRawPointer(reveal), "clicked")
            await d.settle()
            d.expect(await d.wait { gtk_entry_get_visibility(gtkCast(entry, to: GtkEntry.self)) != 0 }, "Show API key reveals it")
        }
        d.press("key-entry", in: w)
        d.expect(await d.wait { d.texts(w).contains("Stored in your keyring.") }, "the test passes and stores the key", d.texts(w))
        let test = d.texts(w)
        d.expect(
            test.contains("Reaching the server") && test.contains("Checking the API key")
                && test.contains("Measuring version and latency") && test.contains("Looking for system features"),
            "the checklist shows every step")
        d.expect(test.contains("capsule"), "the system features row counts capsules")
        await d.screenshot(w, "4-test")
        let settings = SettingsStore().load()
        d.expect(settings.activeServer?.address == ((try? ServerAddress.parse(c.server))?.baseURL ?? c.server), "the address is saved after the test")
        if let server = try? ServerAddress.parse(c.server) {
            let stored = try? await CredentialStore().lookup(for: server)
            d.expect(stored == c.key, "the key is in the Secret Service")
        }
        d.click("primary", in: w)
        await d.settle()
        let done = d.texts(w)
        d.expect(
            done.contains("You're all set!") && done.contains(c.server) && done.contains("ms"),
            "Done shows server, version and latency", done)
        await d.screenshot(w, "5-done")
        d.click("open-builderos", in: w)
        d.expect(await d.wait { d.window(named: "main-window") != nil }, "Open BuilderOS opens the main window")
        if let main = d.window(named: "main-window") {
            d.expect(await d.wait { d.texts(main).contains("Connected") }, "the main window connects", d.texts(main))
            await d.screenshot(main, "6-main")
        }
        d.expect(d.window(named: "setup-wizard") == nil, "the wizard closes")
    }

    /// The server is configured but its key is gone from the keyring (removed in the keyring's
    /// own app): the main window opens at once, without waiting for the keyring, then gives way to
    /// setup with the address kept.
    static func keyGone(_ d: Driver, _ c: ScenarioContext) async {
        d.expect(d.window(named: "main-window") != nil, "the main window is open before the keyring has answered")
        d.expect(await d.wait { d.window(named: "setup-wizard") != nil }, "with no key in the keyring, setup opens")
        d.expect(await d.wait { d.window(named: "main-window") == nil }, "the main window gives way to setup")
        guard let w = d.window(named: "setup-wizard") else { return }
        d.click("get-started", in: w)
        await d.settle()
        let entry = d.widget("server-entry", in: w).map { String(cString: gtk_editable_get_text(OpaquePointer($0))) } ?? ""
        d.expect(entry == c.server, "the server's address is kept for setup", entry)
    }

    /// A second start with a stored key goes straight to the main window.
    /// `gsettings set app.builderos.Desktop KEY VALUE` in a process of its own, with the build folder's schema.
    static func gsettingsSet(_ key: String, _ value: String) -> Bool {
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        return Subprocess.succeeds(
            "/usr/bin/gsettings", ["set", BuilderOSKit.applicationID, key, value],
            environment: ["GSETTINGS_SCHEMA_DIR": binaries.appendingPathComponent("schemas").path])
    }

    static func returning(_ d: Driver, _ c: ScenarioContext) async {
        d.expect(d.window(named: "setup-wizard") == nil, "the wizard is skipped when signed in")
        guard let main = d.window(named: "main-window") else { return d.expect(false, "the main window opens") }
        d.expect(await d.wait { d.texts(main).contains("Connected") }, "and connects with the stored key")
        // Preferences, shortcuts and sign out, through the app's own actions.
        g_action_group_activate_action(OpaquePointer(d.app.application), "preferences", nil)
        d.expect(await d.wait { d.window(named: "preferences") != nil }, "Ctrl+, opens Preferences")
        if let prefs = d.window(named: "preferences") {
            d.expect(d.texts(prefs).contains("Appearance") && d.texts(prefs).contains(c.server), "Preferences shows appearance and server")
            await d.screenshot(prefs, "preferences")
            // A preference changed outside the app, as `gsettings set` does it, applies at once, and
            // the open Preferences show it.
            d.expect(gsettingsSet("appearance", "dark"), "gsettings sets the appearance")
            d.expect(await d.wait(seconds: 10) { d.app.appearance?.theme == .dark }, "the app turns dark at once")
            let shown = d.widget("appearance", in: prefs).map { Int(gtk_drop_down_get_selected(OpaquePointer($0))) }
            d.expect(shown == Appearance.allCases.firstIndex(of: .dark), "and the open Preferences show Dark", "\(String(describing: shown))")
            _ = gsettingsSet("appearance", "automatic")
            d.expect(await d.wait(seconds: 10) { d.app.appearance?.preference == .automatic }, "and back to Automatic")
            gtk_window_destroy(gtkCast(prefs, to: GtkWindow.self))
        }
        for (action, accelerator) in [("quit", "<Control>q"), ("preferences", "<Control>comma"), ("shortcuts", "F1")] {
            let accels = gtk_application_get_accels_for_action(d.app.application, "app.\(action)")
            defer { g_strfreev(accels) }
            let first = accels?.pointee.map { String(cString: $0) }
            d.expect(first == accelerator, "app.\(action) is on \(accelerator)", first ?? "none")
        }
        g_action_group_activate_action(OpaquePointer(d.app.application), "shortcuts", nil)
        d.expect(await d.wait { d.window(named: "shortcuts-window") != nil }, "F1 opens the keyboard shortcuts")
        if let shortcuts = d.window(named: "shortcuts-window") { gtk_window_destroy(gtkCast(shortcuts, to: GtkWindow.self)) }
        g_action_group_activate_action(OpaquePointer(d.app.application), "change-server", nil)
        d.expect(await d.wait { d.window(named: "setup-wizard") != nil }, "Change Server… opens the wizard")
        if let wizard = d.window(named: "setup-wizard") {
            let texts = d.texts(wizard)
            d.expect(
                texts.contains("Where is your server?") && texts.contains("BuilderOS will connect to \(c.server)"),
                "at the server step, with the current address filled in", texts)
            gtk_window_destroy(gtkCast(wizard, to: GtkWindow.self))
        }
        d.expect(d.window(named: "main-window") != nil, "the main window stays while the server is not changed")
        g_action_group_activate_action(OpaquePointer(d.app.application), "sign-out", nil)
        d.expect(await d.wait { d.window(named: "sign-out-confirm") != nil }, "Sign Out asks first")
        if let confirm = d.window(named: "sign-out-confirm") { d.click("confirm-button", in: confirm) }
        d.expect(await d.wait { d.window(named: "setup-wizard") != nil }, "after signing out the wizard opens")
        d.expect(SettingsStore().load().servers.isEmpty, "sign out forgets the server")
        if let server = try? ServerAddress.parse(c.server) {
            let stored = try? await CredentialStore().lookup(for: server)
            d.expect(stored == nil, "sign out removes the key from the keyring")
        }
    }

    static func malformedURL(_ d: Driver, _ c: ScenarioContext) async {
        guard let w = d.window(named: "setup-wizard") else { return d.expect(false, "the wizard opens") }
        d.click("get-started", in: w)
        await d.settle()
        d.type("https://my server.example.com", into: "server-entry", in: w)
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("A server address cannot contain spaces.") }, "a malformed address is explained", d.texts(w))
        d.expect(!d.isSensitive("primary", in: w), "Continue stays off for a malformed address")
        await d.screenshot(w, "server-invalid")
        d.type("ftp://files.example.com", into: "server-entry", in: w)
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("addresses are not supported") }, "other schemes are refused")
        d.type("https://builderos.example.com/api/status", into: "server-entry", in: w)
        await d.settle()
        d.expect(
            await d.wait {
                d.texts(w).contains("BuilderOS will connect to https://builderos.example.com\n")
                    || d.texts(w).hasSuffix("BuilderOS will connect to https://builderos.example.com")
            },
            "a pasted route is trimmed to the server's base address")
        d.type("http://203.0.113.7:8080", into: "server-entry", in: w)
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("Unencrypted connection") }, "plain http over the internet is warned about")
        await d.screenshot(w, "server-http-warning")
        d.click("primary", in: w)
        d.expect(await d.wait { d.window(named: "http-consent") != nil }, "and needs confirmation before continuing")
        if let consent = d.window(named: "http-consent") {
            await d.screenshot(consent, "http-consent")
            d.click("cancel-button", in: consent)
        }
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains("Where is your server?") }, "cancelling the confirmation stays on the server step")
        // Escape asks before leaving; leaving stores nothing.
        gtk_widget_grab_focus(d.widget("server-entry", in: w)!)
        d.sendKey(Keys.escape, to: w)
        d.expect(await d.wait { d.window(named: "leave-setup") != nil }, "Escape asks before leaving")
        if let leave = d.window(named: "leave-setup") {
            await d.screenshot(leave, "leave-setup")
            d.click("confirm-button", in: leave)
        }
        d.expect(await d.wait { d.window(named: "setup-wizard") == nil }, "leaving closes the wizard")
        d.expect(!SettingsStore().hasSavedServer, "leaving mid-way writes no settings")
    }

    static func failingTest(_ d: Driver, _ c: ScenarioContext, expected: String, backTo: String) async {
        guard let w = await reachTest(d, c, screenshots: false) else { return }
        d.press("key-entry", in: w)
        d.expect(await d.wait { d.texts(w).contains(expected) }, "the failing row says: \(expected)", d.texts(w))
        d.expect(await d.wait { d.texts(w).contains("Not checked") }, "later rows are not run")
        d.expect(
            d.widget("primary", in: w).map { String(cString: gtk_button_get_label(gtkCast($0, to: GtkButton.self))) } == "_Retry",
            "the primary button offers Retry")
        d.expect(d.widget("test-fix", in: w).map { !WidgetTree.visibleTexts(in: $0).joined().isEmpty } ?? false, "a fix-it sentence is shown")
        await d.screenshot(w, "4-test-failed")
        d.click("primary", in: w)  // Retry runs it again, with the same outcome
        d.expect(await d.wait { d.texts(w).contains(expected) && !d.texts(w).contains("Checking…") }, "Retry runs the test again")
        d.click("back", in: w)
        await d.settle()
        d.expect(await d.wait { d.texts(w).contains(backTo) }, "Back leads to where it can be fixed")
        d.expect(!SettingsStore().hasSavedServer, "nothing is saved after a failed test")
    }

    static func systemAbsent(_ d: Driver, _ c: ScenarioContext) async {
        guard let w = await reachTest(d, c, screenshots: false) else { return }
        d.press("key-entry", in: w)
        d.expect(await d.wait { d.texts(w).contains("Stored in your keyring.") }, "the test passes without the system server", d.texts(w))
        d.expect(d.texts(w).contains("Capsules and power controls are not available on this server"), "with a note saying what is missing")
        await d.screenshot(w, "4-test-note")
        d.click("primary", in: w)
        await d.settle()
        d.expect(
            await d.wait { d.texts(w).contains("You're all set!") && d.texts(w).contains("not available on this server") }, "Done repeats the note")
    }

    static func keyringUnavailable(_ d: Driver, _ c: ScenarioContext) async {
        guard let w = await reachTest(d, c, screenshots: false) else { return }
        d.press("key-entry", in: w)
        d.expect(await d.wait { d.texts(w).contains("No keyring service is running") }, "the keyring problem is said plainly", d.texts(w))
        d.expect(d.texts(w).contains("gnome-keyring"), "with what to install")
        d.expect(d.isSensitive("primary", in: w), "Retry is offered")
        await d.screenshot(w, "4-test-keyring")
        d.expect(!SettingsStore().hasSavedServer, "the address is not saved without the key")
    }
}
