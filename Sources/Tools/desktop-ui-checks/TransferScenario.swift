import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// Export and import through the window (the test seeds two conversations and writes the files to
/// import): every conversation to JSON from the main menu, the open one to Markdown from its own
/// menu, an import that adds a conversation (shown in the list at once) and a message to the open one
/// (shown in its place at once), the same import again
/// (adds nothing), and a truncated file (refused with the reason). GTK's own file chooser answers
/// (the tests' session bus has no portal).
@MainActor
enum TransferScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["transfer": transfer]

    static func transfer(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d), let folder = c.options["folder"], let importFile = c.options["import"],
            let broken = c.options["broken"]
        else { return d.expect(false, "the main window and the scenario's files") }
        d.activate(PageID.chat.windowAction, in: main)
        await d.settle()

        // Every conversation, as JSON, from the main menu.
        let backup = (folder as NSString).appendingPathComponent("backup.json")
        d.activate("win.export-history-json", in: main)
        d.expect(await d.chooseFile(backup), "the file chooser asks where to save")
        d.expect(await notice("export-done", d), "the export says it is done")
        close("export-done", d)
        let json = (try? String(contentsOfFile: backup, encoding: .utf8)) ?? ""
        d.expect(json.contains("\"title\" : \"Deploy\"") && json.contains("\"title\" : \"Notes\""), "both conversations are in the file")
        let mode = (try? FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int) ?? 0
        d.expect(mode == 0o600, "the file is private", String(mode, radix: 8))

        // The open conversation, as Markdown, from its own menu.
        let markdown = (folder as NSString).appendingPathComponent("open.md")
        guard let menu = d.widget("export-conversation", in: main) else { return d.expect(false, "the conversation has an export menu") }
        gtk_widget_activate_action_variant(menu, "conversation.export-markdown", nil)
        d.expect(await d.chooseFile(markdown), "the file chooser asks where to save the conversation")
        d.expect(await notice("export-done", d), "the conversation's export says it is done")
        close("export-done", d)
        let text = (try? String(contentsOfFile: markdown, encoding: .utf8)) ?? ""
        d.expect(text.hasPrefix("# ") && text.contains("```sh\nmake deploy\n```"), "the Markdown reads as the conversation, code intact", text)

        // An import adds its conversation to the list at once; the same file again adds nothing.
        d.activate("win.import-history", in: main)
        d.expect(await d.chooseFile(importFile), "the file chooser asks what to import")
        let added = await notice("import-done", d)
        d.expect(added && d.texts(main).contains("Imported from another computer"), "the imported conversation is listed", d.texts(main))
        // Deploy, open, shows the message merged into it in its place: after the question, before the reply.
        let shown = d.texts(main)
        let places = ["how do I deploy?", "a note from the laptop", "make deploy"].map { shown.range(of: $0)?.lowerBound }
        d.expect(
            places.allSatisfy { $0 != nil } && places[0]! < places[1]! && places[1]! < places[2]!,
            "the open conversation shows the merged message in its place", shown)
        if let dialog = d.window(named: "import-done") {
            d.expect(d.texts(dialog).contains("1"), "the dialog says what was added", d.texts(dialog))
            await d.screenshot(dialog, "imported")
            d.click("close-button", in: dialog)
        }
        d.activate("win.import-history", in: main)
        _ = await d.chooseFile(importFile)
        if await notice("import-done", d), let dialog = d.window(named: "import-done") {
            d.expect(
                d.texts(dialog).contains(String(format: d.translated("New conversations: %d"), 0)), "a second import adds nothing", d.texts(dialog))
            d.click("close-button", in: dialog)
        }

        // A truncated file is refused whole, with the reason.
        d.activate("win.import-history", in: main)
        _ = await d.chooseFile(broken)
        d.expect(await notice("import-failed", d), "a broken file is refused")
        if let dialog = d.window(named: "import-failed") {
            d.expect(
                d.texts(dialog).contains(d.translated("Nothing was imported. Choose a file made with “Export” in BuilderOS Desktop.")),
                "it says nothing was imported", d.texts(dialog))
            // A sentence as the window's title would stretch the dialog to its width in Wayland's title bar.
            let title = gtk_window_get_title(gtkCast(dialog, to: GtkWindow.self)).map { String(cString: $0) }
            d.expect(title == d.translated("Could not import"), "the window's title names what failed, in a few words", title ?? "none")
            await d.screenshot(dialog, "refused")
            d.click("close-button", in: dialog)
        }
    }

    static func close(_ name: String, _ d: Driver) {
        if let dialog = d.window(named: name) { d.click("close-button", in: dialog) }
    }

    /// Waits for the notice dialog `name`.
    static func notice(_ name: String, _ d: Driver) async -> Bool {
        await d.wait(seconds: 10) { d.window(named: name) != nil }
    }
}
