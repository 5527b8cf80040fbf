import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// Search across the history (the test seeds it): Ctrl+Shift+F goes to the field, typing finds
/// messages in every conversation grouped by conversation, opening a hit deep in a 10,000-message
/// conversation shows that message in view and ringed, Escape returns to the conversations, and `/`
/// in the conversation list goes back to the field.
@MainActor
enum SearchScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["search": search, "find": find]

    /// Ctrl+F in the 10,000-message conversation, whose messages 100, 5,000 and 9,995 say "Gateway":
    /// the bar counts all three (two are far from the rows loaded), Enter, Shift+Enter and F3 show
    /// each in place, ringed and with the word marked; Escape closes the bar and takes the marks away.
    static func find(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        d.activate(PageID.chat.windowAction, in: main)
        await d.settle()
        guard let list = d.widget("conversations", in: main), let row = gtk_list_box_get_row_at_index(OpaquePointer(list), 1) else {
            return d.expect(false, "the conversation list has the long conversation")
        }
        gtk_list_box_select_row(OpaquePointer(list), row)
        d.expect(await d.wait { d.texts(main).contains("message 9999") }, "the long conversation is open at its newest message")
        guard let view = d.widget("conversation-view", in: main) else { return d.expect(false, "the conversation is shown") }
        d.expect(d.widget("find-bar", in: main) == nil, "the find bar is not made before it is asked for")
        let control: UInt32 = 4, shift: UInt32 = 1, f3: UInt32 = 0xffc0
        d.sendKey(0x66, to: view, modifiers: control)
        await d.settle()
        guard let bar = d.widget("find-bar", in: main), let entry = d.widget("find-entry", in: main) else {
            return d.expect(false, "Ctrl+F makes the conversation's find bar")
        }
        let window = gtkCast(main, to: GtkWindow.self)
        d.expect(
            gtk_widget_get_mapped(bar) != 0 && (gtk_window_get_focus(window).map { $0 == entry || gtk_widget_is_ancestor($0, entry) != 0 } ?? false),
            "Ctrl+F opens the bar, ready for typing")

        d.type("gatew", into: "find-entry", in: main)
        await showsMatch(d, main, 1, of: 3, message: 9995, "typing finds all three and shows the newest, in place")
        let prefix = c.options["screens"].map { "\($0)-" } ?? ""
        await d.screenshot(main, prefix + "find")
        Signals.emit(UnsafeMutableRawPointer(entry), "activate")
        await showsMatch(d, main, 2, of: 3, message: 5000, "Enter shows the next older match, read from history around it")
        d.sendKey(0xff0d, to: entry, modifiers: shift)
        await showsMatch(d, main, 1, of: 3, message: 9995, "Shift+Enter goes back")
        d.sendKey(f3, to: view)
        d.sendKey(f3, to: view)
        await showsMatch(d, main, 3, of: 3, message: 100, "F3 goes on to the oldest")
        d.sendKey(f3, to: view)
        await showsMatch(d, main, 1, of: 3, message: 9995, "and past it, to the newest again")
        d.sendKey(f3, to: view, modifiers: shift)
        await showsMatch(d, main, 3, of: 3, message: 100, "Shift+F3 wraps backwards")

        d.type("nothing-like-this", into: "find-entry", in: main)
        d.expect(
            await d.wait { label(d, "find-count", in: main) == d.translated("No matches") }, "no match is said", label(d, "find-count", in: main))
        d.type("gateway", into: "find-entry", in: main)
        await showsMatch(d, main, 1, of: 3, message: 9995, "a whole word finds them again")
        Signals.emit(UnsafeMutableRawPointer(entry), "stop-search")
        await d.settle()
        let marks = d.widget("message-list", in: main).map(LabelHighlight.markedRanges) ?? -1
        d.expect(gtk_widget_get_visible(bar) == 0 && marks == 0, "Escape closes the bar and takes the marks away", "\(marks) marks")
        let focus = gtk_window_get_focus(window)
        let input = d.widget("message-input", in: main)
        d.expect(
            focus != nil && input != nil && (focus == input || gtk_widget_is_ancestor(focus, input) != 0), "the focus returns to the message field")
    }

    /// Waits until the bar says "`shown` of `count`" and message `number` is ringed near the top of the view, with a mark.
    static func showsMatch(_ d: Driver, _ main: Widget, _ shown: Int, of count: Int, message number: Int, _ what: String) async {
        let counted = String(format: d.translated("%d of %d"), shown, count)
        let ok = await d.wait {
            guard label(d, "find-count", in: main) == counted, foundInView(d, main), let ringed = foundRow(d, main) else { return false }
            return WidgetTree.visibleTexts(in: ringed).joined().contains("message \(number):") && LabelHighlight.markedRanges(in: ringed) == 1
        }
        d.expect(ok, what, "\(label(d, "find-count", in: main)); ringed: \(foundRow(d, main).map { WidgetTree.visibleTexts(in: $0) } ?? [])")
    }

    static func label(_ d: Driver, _ name: String, in window: Widget) -> String {
        d.widget(name, in: window).map { String(cString: gtk_label_get_text(OpaquePointer($0))) } ?? ""
    }

    static func foundRow(_ d: Driver, _ main: Widget) -> Widget? {
        d.widget("message-list", in: main).flatMap { list in
            WidgetTree.all(list).first { gtk_widget_has_css_class($0, "bos-found") != 0 && gtk_widget_get_mapped($0) != 0 }
        }
    }

    static func search(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        let window = gtkCast(main, to: GtkWindow.self)
        let accelerator = d.accelerator(for: "win.search-history") ?? "none"
        d.expect(["<Control><Shift>f", "<Shift><Control>f"].contains(accelerator), "Ctrl+Shift+F searches", accelerator)
        d.activate("win.search-history", in: main)
        await d.settle()
        guard let entry = d.widget("history-search", in: main), let list = d.widget("conversations", in: main) else {
            return d.expect(false, "the search field and the conversation list exist")
        }
        d.expect(
            gtk_window_get_focus(window).map { gtk_widget_is_ancestor($0, entry) != 0 || $0 == entry } ?? false, "the shortcut focuses the field")

        let needle = "resume"
        let prefix = c.options["screens"].map { "\($0)-" } ?? ""  // "german-": the German run's pictures
        d.type(needle, into: "history-search", in: main)
        // Made at the first search (rule 6 of docs/performance.md).
        guard let results = d.widget("search-results", in: main) else { return d.expect(false, "typing makes the results list") }
        let found = await d.wait {
            let shown = WidgetTree.visibleTexts(in: results)
            return shown.contains("Ten thousand") && shown.contains("Deploy notes")
        }
        d.expect(
            found && gtk_widget_get_mapped(results) != 0 && gtk_widget_get_mapped(list) == 0, "the results replace the list, grouped by conversation",
            d.texts(main))
        let hitRows = WidgetTree.all(results).filter {
            isRow($0) && gtk_widget_get_visible($0) != 0 && gtk_list_box_row_get_selectable(gtkCast($0, to: GtkListBoxRow.self)) != 0
        }
        d.expect(hitRows.count == 3, "one row per message found", "\(hitRows.count)")
        let headingInRow = hitRows.contains { WidgetTree.visibleTexts(in: $0).contains("Ten thousand") }
        d.expect(!headingInRow, "the conversation's heading is not part of a row to choose")
        // Names say the text as shown: the bubble and the snippet draw Markdown's marks as formatting.
        let spellsMarks = { (name: String?) in name.map { $0.contains("**") || $0.contains("`") } ?? true }
        let hitNames = hitRows.map(Accessibility.label(of:))
        d.expect(!hitNames.contains(where: spellsMarks), "a hit's name has no Markdown marks", "\(hitNames)")
        let replyNames = WidgetTree.all(main).filter { WidgetTree.stateName(of: $0)?.hasPrefix("message-assistant") == true }
            .map(Accessibility.label(of:))
        d.expect(!replyNames.isEmpty && !replyNames.contains(where: spellsMarks), "a reply's name has no Markdown marks", "\(replyNames)")
        let bold = WidgetTree.all(results).contains { label in
            isLabel(label) && (gtk_label_get_label(OpaquePointer(label)).map { String(cString: $0).contains("<b>résumé</b>") } ?? false)
        }
        d.expect(bold, "the matched word is bold in its snippet, accents and all")
        // The narrow row cuts a snippet's end: each match is shown near the start, where it is in view.
        let snippets = WidgetTree.all(results).filter { isLabel($0) && gtk_widget_get_mapped($0) != 0 }
            .map { String(cString: gtk_label_get_text(OpaquePointer($0))) }.filter { $0.contains("résumé") }
        let matchesInView = snippets.allSatisfy { text in
            text.range(of: "résumé").map { text.distance(from: text.startIndex, to: $0.lowerBound) <= 14 } ?? false
        }
        d.expect(snippets.count == 3 && matchesInView, "every snippet shows its match near its start", "\(snippets)")
        await d.screenshot(main, prefix + "results")
        await typeOnResults(d, main, entry: entry, results: results, needle: needle)

        // Down goes to the first hit; the deep one is the 10,000-message conversation's message 1,234.
        d.sendKey(0xff54, to: entry)
        guard let deep = hitRows.first(where: { Accessibility.label(of: $0)?.contains("message 1234") == true }) else {
            return d.expect(false, "the hit deep in the long conversation is listed", d.texts(main))
        }
        let start = Date()
        gtk_widget_activate(deep)
        var frames = 0
        while !foundInView(d, main) && frames < 60 {
            await d.oneFrame(main)
            frames += 1
        }
        await d.nextFrame(main)
        print(
            "MEASURE open a search hit 1,234 messages into 10,000: \(Int(Date().timeIntervalSince(start) * 1000)) ms, \(frames) frames until ringed in view and painted"
        )
        d.expect(foundInView(d, main), "the found message is in view, ringed, near the top")
        // And stays there while older messages come in above it.
        for _ in 0..<10 { await d.nextFrame(main) }
        d.expect(foundInView(d, main), "the found message stays in view as older ones load")
        d.expect(d.texts(main).contains("Ten thousand"), "its conversation is open")
        await d.screenshot(main, prefix + "opened")

        // Escape: the conversations again, the field empty.
        d.sendKey(0xff1b, to: results)
        await d.settle()
        d.expect(await d.wait { UI.text(of: entry).isEmpty && gtk_widget_get_mapped(list) != 0 }, "Escape returns to the conversation list")
        // `/` in the list goes to the field.
        d.sendKey(0x2f, to: list)
        await d.settle()
        d.expect(
            await d.wait { gtk_window_get_focus(window).map { gtk_widget_is_ancestor($0, entry) != 0 || $0 == entry } ?? false },
            "/ in the list goes to the search field")
        // Older rows came in above the found one and the view kept it: scroll to the top of what is loaded.
        d.type("nothing-like-this", into: "history-search", in: main)
        d.expect(await d.wait { d.texts(main).contains(d.translated("No messages found.")) }, "a search without hits says so")
    }

    /// Keys typed on a result go on with the search, and Enter still opens the chosen result: real keys,
    /// made by the display server (`RealKeys`), as GTK's key capture acts on real events alone.
    static func typeOnResults(_ d: Driver, _ main: Widget, entry: Widget, results: Widget, needle: String) async {
        let window = gtkCast(main, to: GtkWindow.self)
        let inField = { gtk_window_get_focus(window).map { gtk_widget_is_ancestor($0, entry) != 0 || $0 == entry } ?? false }
        let down: UInt32 = 0xff54, backspace: UInt32 = 0xff08, enter: UInt32 = 0xff0d, x: UInt32 = 0x78
        d.sendKey(down, to: entry)
        guard let pressed = await RealKeys.press([x], in: main, d) else {
            return print("NOTE \(d.scenario): typing on a result is not checked: nothing here makes real keys (RealKeys)")
        }
        d.expect(pressed, "the display server makes the keys")
        d.expect(
            await d.wait { UI.text(of: entry) == needle + "x" && inField() }, "a key typed on a result goes to the field, which takes the focus",
            "\(UI.text(of: entry)), focus in the field: \(inField())")
        d.expect(await d.wait { d.texts(main).contains(d.translated("No messages found.")) }, "and the search goes on with it")
        d.expect(await RealKeys.press([backspace], in: main, d) == true, "Backspace is made")
        d.expect(
            await d.wait { UI.text(of: entry) == needle && WidgetTree.visibleTexts(in: results).contains("Ten thousand") },
            "Backspace takes the key back, and the hits with it", UI.text(of: entry))
        // Down to the second hit (Deploy notes' question), Enter: that one opens, not the first.
        d.sendKey(down, to: entry)
        d.expect(await RealKeys.press([down, enter], in: main, d) == true, "Down and Enter are made")
        let opened = await d.wait {
            foundRow(d, main).map { WidgetTree.visibleTexts(in: $0).joined().contains("Where is my résumé template?") } ?? false
        }
        d.expect(
            opened && UI.text(of: entry) == needle, "Enter on a chosen result opens that one",
            "ringed: \(foundRow(d, main).map { WidgetTree.visibleTexts(in: $0) } ?? []), field: \(UI.text(of: entry))")
    }

    static func isLabel(_ widget: Widget) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0
    }

    static func isRow(_ widget: Widget) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_list_box_row_get_type()) != 0
    }

    /// Where the ringed row is in the message list's view, and the view in the list, for traces.
    static func foundPosition(_ d: Driver, _ main: Widget) -> String {
        guard let listView = d.widget("message-list", in: main), let scroller = gtk_widget_get_parent(listView),
            let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
        else { return "no list" }
        var y = "not shown"
        let row = WidgetTree.all(scroller).first { gtk_widget_has_css_class($0, "bos-found") != 0 && gtk_widget_get_mapped($0) != 0 }
        var bounds = graphene_rect_t()
        if let row, gtk_widget_compute_bounds(row, scroller, &bounds) != 0 { y = String(format: "at y %.0f", bounds.origin.y) }
        return String(
            format: "%@, view %.0f of %.0f, rows %d", y, gtk_adjustment_get_value(adjustment), gtk_adjustment_get_upper(adjustment),
            d.named(prefix: "message-", in: main).count)
    }

    /// Whether the ringed row (the found message) is inside the message list's visible area.
    static func foundInView(_ d: Driver, _ main: Widget) -> Bool {
        guard let listView = d.widget("message-list", in: main), let scroller = gtk_widget_get_parent(listView) else { return false }
        let height = Double(gtk_widget_get_height(scroller))
        return WidgetTree.all(scroller).contains { row in
            guard gtk_widget_has_css_class(row, "bos-found") != 0, gtk_widget_get_mapped(row) != 0 else { return false }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(row, scroller, &bounds) != 0 else { return false }
            return Double(bounds.origin.y) >= 0 && Double(bounds.origin.y) < height / 2
        }
    }
}
