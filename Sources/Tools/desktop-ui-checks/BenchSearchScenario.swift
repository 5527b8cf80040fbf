import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// For `meson-helpers/benchmark`: search in a 100,000-message history (the benchmark seeds it). Each
/// keystroke of each query (`--queries`, comma-separated; each typed into the emptied field a key
/// at a time) is timed from the key's insertion to the frame painted with that text's results; then
/// the queries are typed at a fast typist's pace (a key each 60 ms) while the frame clock is
/// watched; then a hit deep in a 10,000-message conversation (`--needle`) is opened and timed until
/// it is in view, ringed and painted. Prints MEASURE lines; asserts nothing about timing.
@MainActor
enum BenchSearchScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["search": run]

    /// A key typed at the end of the field, as a keystroke inserts it: setting the whole text would
    /// empty the field first, a search of its own with the conversation list shown in between.
    private static func type(_ key: Character, into entry: Widget) {
        var position = Int32(UI.text(of: entry).unicodeScalars.count)
        gtk_editable_insert_text(OpaquePointer(entry), String(key), -1, &position)
    }

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        d.readsAccessibleNames = false  // it measures
        guard let main = await MainScenarios.benchmarkChat(d), let clock = gtk_widget_get_frame_clock(main) else { return }
        guard let entry = d.widget("history-search", in: main) else { return d.expect(false, "the search field exists") }
        let queries = (c.options["queries"] ?? "dep,deploy,retries less,\"dropped connection\",conn -deploy").split(separator: ",").map(String.init)
        // The results list is made at the first search: looked up until it is there.
        var results: Widget?
        let shows = { (text: String) in
            results = results ?? d.widget("search-results", in: main)
            return (results.flatMap(WidgetTree.stateName(of:)) ?? "").hasSuffix(" for \(text)")
        }

        var latencies: [Double] = []
        for query in queries {
            UI.setText(ofEditable: entry, "")
            await d.nextFrame(main)
            var text = ""
            for key in query {
                text.append(key)
                let start = Date()
                type(key, into: entry)
                // The field searches from two letters on.
                guard text.count >= 2, SearchQuery(text).expression != nil else { continue }
                // Polled each millisecond: the driver's usual 20 ms polling would add up to a frame to every figure.
                let deadline = Date().addingTimeInterval(5)
                while !shows(text) && Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
                guard shows(text) else {
                    d.expect(false, "results for \(text)")
                    continue
                }
                await d.oneFrame(main)
                latencies.append(Date().timeIntervalSince(start) * 1000)
            }
        }
        let sorted = latencies.sorted()
        if !sorted.isEmpty {
            print("MEASURE search-keystrokes=\(sorted.count)")
            print(String(format: "MEASURE search-keystroke-median-ms=%.1f", sorted[sorted.count / 2]))
            print(String(format: "MEASURE search-keystroke-worst-ms=%.1f", sorted.last!))
        }

        // Typing without waiting for results: no frame may be late.
        UI.setText(ofEditable: entry, "")
        await d.nextFrame(main)
        let meter = FrameMeter(clock: clock)
        meter.start()
        for query in queries {
            UI.setText(ofEditable: entry, "")
            for key in query {
                type(key, into: entry)
                try? await Task.sleep(nanoseconds: 60_000_000)
            }
        }
        _ = await d.wait(seconds: 5) { shows(queries.last!) }
        meter.stop().report("search-typing-")

        // A hit deep in the long conversation.
        guard let needle = c.options["needle"] else { return }
        UI.setText(ofEditable: entry, needle)
        guard await d.wait(seconds: 5, until: { shows(needle) }) else { return d.expect(false, "the needle is found") }
        await d.nextFrame(main)
        guard
            let results,
            let row = WidgetTree.all(results).first(where: {
                SearchScenario.isRow($0) && gtk_widget_get_visible($0) != 0
                    && gtk_list_box_row_get_selectable(gtkCast($0, to: GtkListBoxRow.self)) != 0
            })
        else { return d.expect(false, "a row for the needle") }
        let start = Date()
        gtk_widget_activate(row)
        // Until it has stayed in view for two frames in a row (rows measured as they come may move it once).
        var frames = 0, steady = 0
        var trace: [String] = []
        while steady < 2 && frames < 120 {
            await d.oneFrame(main)
            frames += 1
            steady = SearchScenario.foundInView(d, main) ? steady + 1 : 0
            trace.append(
                String(
                    format: "%.0f ms%@ (%@)", Date().timeIntervalSince(start) * 1000, steady > 0 ? " in view" : "",
                    SearchScenario.foundPosition(d, main)))
        }
        // Each frame's time, to see what a miss comes from.
        print("OPEN-FRAMES " + trace.joined(separator: ", "))
        d.expect(steady >= 2, "the found message is in view and stays there")
        print(String(format: "MEASURE search-open-deep-ms=%.1f", Date().timeIntervalSince(start) * 1000))
    }
}
