import CGtk
import Foundation
import GtkKit

/// `FramePhases`: its "after layout" follows GTK's own layout of the window in every frame, and a
/// change made there with a resize queued is laid out again and painted in that same frame (what
/// the message list's opening frame relies on, `OpeningFrame`).
@MainActor
enum FramePhasesChecks {
    static let changeAfterLayoutIsPaintedInTheSameFrame = Check(
        name: "a change made after a frame's layout is laid out again and painted in that frame"
    ) {
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 400, 300)
        let label = gtk_label_new("short")!
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), label)
        var layouts: [(frame: Int, width: Int32)] = []
        var painted: [(frame: Int, width: Int32)] = []
        var changedIn = -1
        let frame = { gtk_widget_get_frame_clock(window).map { gdk_frame_clock_get_frame_counter($0) } ?? -1 }
        FramePhases.observe(
            label,
            afterLayout: {
                layouts.append((frame(), gtk_widget_get_width(label)))
                // Once, in the first frame: a longer text, which needs another layout.
                if changedIn < 0 {
                    changedIn = frame()
                    gtk_label_set_text(OpaquePointer(label), "a much longer text than before")
                    gtk_widget_queue_resize(label)
                }
            }, afterPaint: { painted.append((frame(), gtk_widget_get_width(label))) })
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 3) { !painted.isEmpty }
        let first = painted.first
        var natural: Int32 = 0
        gtk_widget_measure(label, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
        let layoutsOfThatFrame = layouts.filter { $0.frame == changedIn }
        let passed =
            first.map { $0.frame == changedIn && $0.width == natural } ?? false
            && layoutsOfThatFrame.count == 2 && layoutsOfThatFrame[0].width < layoutsOfThatFrame[1].width
        return Outcome(
            passed: passed,
            detail:
                "changed in frame \(changedIn); layouts of that frame \(layoutsOfThatFrame.map(\.width)); first painted \(String(describing: first)); the longer text's width \(natural)"
        )
    }
}
