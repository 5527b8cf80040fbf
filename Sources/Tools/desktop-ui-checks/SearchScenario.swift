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
    static let scenarios: [String: Scenario] = ["search": search]

    static func search(_ d: Driver, _ c: ScenarioContext) async {
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        let window = gtkCast(main, to: GtkWindow.self)
        let accelerator = d.accelerator(for: "win.search-history") ?? "none"
        d.expect(["<Control><Shift>f", "<Shift><Control>f"].contains(accelerator), "Ctrl+Shift+F searches", accelerator)
        d.activate("win.search-history", in: main)
        await d.settle()
        guard let entry = d.widget("history-search", in: main), let results = d.widget("search-results", in: main),
            let list = d.widget("conversations", in: main)
        else { return d.expect(false, "the search field, its results and the conversation list exist") }
        d.expect(
            gtk_window_get_focus(window).map { gtk_widget_is_ancestor($0, entry) != 0 || $0 == entry } ?? false, "the shortcut focuses the field")

        let needle = "resume"
        let prefix = c.options["screens"].map { "\($0)-" } ?? ""  // "german-": the German run's pictures
        d.type(needle, into: "history-search", in: main)
        let found = await d.wait {
            let shown = WidgetTree.visibleTexts(in: results)
            return shown.contains("Ten thousand") && shown.contains("Deploy notes")
        }
        d.expect(
            found && gtk_widget_get_mapped(results) != 0 && gtk_widget_get_mapped(list) == 0, "the results replace the list, grouped by conversation",
            d.texts(main))
        let hitRows = WidgetTree.all(results).filter { isRow($0) && gtk_list_box_row_get_selectable(gtkCast($0, to: GtkListBoxRow.self)) != 0 }
        d.expect(hitRows.count == 3, "one row per message found (headers are not rows to choose)", "\(hitRows.count)")
        let bold = WidgetTree.all(results).contains { label in
            isLabel(label) && (gtk_label_get_label(OpaquePointer(label)).map { String(cString: $0).contains("<b>résumé</b>") } ?? false)
        }
        d.expect(bold, "the matched word is bold in its snippet, accents and all")
        await d.screenshot(main, prefix + "results")

        // Down goes to the first hit; the deep one is the 10,000-message conversation's message 1,234.
        d.sendKey(0xff54, to: entry)
        guard let deep = hitRows.first(where: { WidgetTree.visibleTexts(in: $0).joined().contains("message 1234") }) else {
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
        d.expect(UI.text(of: entry).isEmpty && gtk_widget_get_mapped(list) != 0, "Escape returns to the conversation list")
        // `/` in the list goes to the field.
        d.sendKey(0x2f, to: list)
        await d.settle()
        d.expect(
            gtk_window_get_focus(window).map { gtk_widget_is_ancestor($0, entry) != 0 || $0 == entry } ?? false,
            "/ in the list goes to the search field")
        // Older rows came in above the found one and the view kept it: scroll to the top of what is loaded.
        d.type("nothing-like-this", into: "history-search", in: main)
        d.expect(await d.wait { d.texts(main).contains(d.translated("No messages found.")) }, "a search without hits says so")
    }

    static func isLabel(_ widget: Widget) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0
    }

    static func isRow(_ widget: Widget) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_list_box_row_get_type()) != 0
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
