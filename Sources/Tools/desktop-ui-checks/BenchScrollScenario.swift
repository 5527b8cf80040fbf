import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// For `meson-helpers/benchmark`: the real main window opens a 10,000-message conversation and is
/// scrolled end to end, a page a frame (a fling, or the scrollbar dragged; `--step` takes a part of
/// a page, e.g. a mouse wheel's pace): up until the first message is loaded and the view rests at
/// the top, then down to the newest. Counts frames whose
/// work took over 16 ms. Prints MEASURE lines; asserts nothing about timing.
@MainActor
enum BenchScrollScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["scroll": run]

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        d.readsAccessibleNames = false  // it measures
        guard let main = await MainScenarios.benchmarkChat(d) else { return }
        guard let list = d.widget("message-list", in: main), let scroller = gtk_widget_get_parent(list),
            let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller)),
            let clock = gtk_widget_get_frame_clock(main)
        else { return d.expect(false, "the chat page shows the message list") }
        d.expect(await d.wait { gtk_adjustment_get_upper(adjustment) > gtk_adjustment_get_page_size(adjustment) }, "the conversation opens")
        // The realistic conversation as a person sees it (in the --out folder).
        await d.screenshot(main, "scroll-start")
        let meter = FrameMeter(clock: clock)
        // What a row costs to make and style: the widgets (each a CSS node) in a reply's row.
        let replies = d.named(prefix: "message-assistant-", in: main)
        if !replies.isEmpty {
            func count(_ w: Widget) -> Int {
                var n = 1
                var child = gtk_widget_get_first_child(w)
                while let c = child { n += count(c); child = gtk_widget_get_next_sibling(c) }
                return n
            }
            print("MEASURE widgets-per-reply-row=\(replies.map(count).reduce(0, +) / replies.count)")
            var kinds: [String: Int] = [:]
            func tally(_ w: Widget) {
                kinds[String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(w)))), default: 0] += 1
                var child = gtk_widget_get_first_child(w)
                while let c = child { tally(c); child = gtk_widget_get_next_sibling(c) }
            }
            replies.forEach(tally)
            print("WIDGETS " + kinds.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value / replies.count)" }.joined(separator: ", "))
        }
        let limit = Double(c.options["seconds"] ?? "120") ?? 120
        // The part of a page the view moves a frame: 1 for a fling, about a tenth for a mouse wheel.
        let step = Double(c.options["step"] ?? "1") ?? 1

        for (direction, name) in [(-1.0, "up"), (1.0, "down")] {
            meter.start()
            let started = Date()
            var resting = 0
            var frames = 0
            // Done when the view has rested at its end for 30 frames (at the top: nothing older
            // left to load, which would put rows above the view and move it down again).
            while resting < 30, Date().timeIntervalSince(started) < limit {
                let page = gtk_adjustment_get_page_size(adjustment)
                let end = direction < 0 ? 0 : gtk_adjustment_get_upper(adjustment) - page
                gtk_adjustment_set_value(
                    adjustment,
                    direction < 0
                        ? max(end, gtk_adjustment_get_value(adjustment) - page * step)
                        : min(end, gtk_adjustment_get_value(adjustment) + page * step))
                await d.oneFrame(main)
                frames += 1
                let atEnd = abs(gtk_adjustment_get_value(adjustment) - (direction < 0 ? 0 : gtk_adjustment_get_upper(adjustment) - page)) < 1
                resting = atEnd ? resting + 1 : 0
            }
            let figures = meter.stop()
            // Reported, not checked: how far a time-boxed run gets is a figure like the others.
            print("MEASURE scroll-\(name)-reached-end=\(resting >= 30 ? 1 : 0)")
            figures.report("scroll-\(name)-")
            print("MEASURE scroll-\(name)-seconds=\(String(format: "%.1f", Date().timeIntervalSince(started)))")
            print("MEASURE scroll-\(name)-steps=\(frames)")
        }
    }
}
