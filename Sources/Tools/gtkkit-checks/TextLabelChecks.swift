import CGtk
import Foundation
import GtkKit

/// `TextLabel`: wrapped text measured the way GtkLabel measures it, with one Pango layout per
/// change instead of three or four, and always drawn at the width it was given.
@MainActor
enum TextLabelChecks {
    static let all = [isALabel, sameSizesAsGtkLabel, laidOutOncePerChange, drawnAtItsAllocation, keepsLinesThatStayTheSame]

    static let paragraph =
        "BuilderOS keeps the conversation on your own machine. Replies stream in as they are written, "
        + "and <a href=\"https://builderos.example.com/guide\">the guide</a> explains how to point the app at your own server, "
        + "step by step, with <b>bold</b> and <tt>code</tt> along the way."
    static let rightToLeft = "שלום עולם, זהו משפט ארוך למדי שנכתב כדי לבדוק גלישת שורות מימין לשמאל בתוך הבועה של התשובה."
    static let short = "A short reply."

    /// To the stylesheet and to assistive technologies it is a label: the same CSS node name (so
    /// the theme and our styles apply) and the same accessible role (screen readers read its text).
    static let isALabel = Check(name: "a text label is a label to CSS and to assistive technologies") {
        let label = TextLabel.make(maxChars: 72)
        g_object_ref_sink(UnsafeMutableRawPointer(label))
        defer { g_object_unref(UnsafeMutableRawPointer(label)) }
        let name = String(cString: gtk_widget_get_css_name(label))
        let role = gtk_accessible_get_accessible_role(OpaquePointer(label))
        return Outcome(passed: name == "label" && role == GTK_ACCESSIBLE_ROLE_LABEL, detail: "CSS name \(name), role \(role.rawValue)")
    }

    /// For texts long and short, left-to-right and right-to-left, with links and markup: the same
    /// natural width (GtkLabel's, capped at the line length) and the same height at every width.
    static let sameSizesAsGtkLabel = Check(name: "a text label measures as a GtkLabel does: widths, and the height at every width") {
        var mismatches: [String] = []
        for markup in [paragraph, rightToLeft, short] {
            let ours = TextLabel.make(maxChars: 72)
            let theirs = UI.label("", wrap: true)
            gtk_label_set_max_width_chars(OpaquePointer(theirs), 10_000)
            for label in [ours, theirs] {
                g_object_ref_sink(UnsafeMutableRawPointer(label))
                gtk_label_set_markup(OpaquePointer(label), markup)
                if markup.count > 24 { gtk_label_set_width_chars(OpaquePointer(label), 24) }
            }
            defer { [ours, theirs].forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
            let (ourMin, ourNatural) = measure(ours, GTK_ORIENTATION_HORIZONTAL, -1)
            let (theirMin, theirNatural) = measure(theirs, GTK_ORIENTATION_HORIZONTAL, -1)
            let cap = charWidth(ours, 72)
            if ourNatural != min(theirNatural, cap) || (markup.count > 24 && ourMin != theirMin) {
                mismatches.append("\(markup.prefix(12))…: widths \(ourMin)/\(ourNatural) against \(theirMin)/\(min(theirNatural, cap))")
            }
            for width in stride(from: ourMin, through: ourNatural + 40, by: 7) {
                let h = measure(ours, GTK_ORIENTATION_VERTICAL, width).natural, g = measure(theirs, GTK_ORIENTATION_VERTICAL, width).natural
                if h != g { mismatches.append("\(markup.prefix(12))… at \(width) px: \(h) against \(g)") }
            }
        }
        return Outcome(passed: mismatches.isEmpty, detail: mismatches.prefix(4).joined(separator: "; "))
    }

    /// Shown in a window, a long text is laid out once for its measure, its height and its drawing;
    /// a new text once more.
    static let laidOutOncePerChange = Check(name: "a long text is laid out once to be measured and drawn, and once per change") {
        let (window, label) = shown(paragraph)
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let first = TextLabel.layouts(label)
        let atCap = gtk_widget_get_width(label) == charWidth(label, 72)
        let frames = frameCount(window)
        gtk_label_set_markup(OpaquePointer(label), paragraph + " One more sentence, as a streaming reply would add.")
        _ = Loop.spin(seconds: 2) { frameCount(window) > frames + 1 }
        let second = TextLabel.layouts(label)
        return Outcome(
            passed: first == 1 && second == 2 && atCap,
            detail: "layouts \(first), then \(second) after a change; given the line length: \(atCap)")
    }

    /// Measured at another width after it was drawn (a parent trying widths, no new allocation), the
    /// label keeps drawing its text as laid out at the width it was given.
    static let drawnAtItsAllocation = Check(name: "measured at another width, a text label still draws at its own") {
        let (window, label) = shown(paragraph)
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        _ = measure(label, GTK_ORIENTATION_VERTICAL, 150)
        let own = gtk_label_get_layout(OpaquePointer(label))!
        let drawn = lineStarts(own), allocated = lineStarts(own, at: gtk_widget_get_width(label))
        return Outcome(
            passed: drawn == allocated && drawn.count > 1,
            detail: "lines start at \(drawn) drawn, \(allocated) at the label's \(gtk_widget_get_width(label)) px")
    }

    /// Asked for a narrower width its lines still fit, or a wider one where none of them wrapped, a
    /// label keeps its layout (Pango would shape the whole text again), and its lines are always
    /// those a new layout at that width has: for a paragraph with markup, right-to-left text, and a
    /// list's hanging indent, at each width from the line length down by a pixel at a time, laid
    /// out again only about where its lines change.
    static let keepsLinesThatStayTheSame = Check(name: "a text label lays its text out again only when its lines change") {
        var problems: [String] = []
        var kept = 0
        for (text, list) in [
            (paragraph, false), (rightToLeft, false),
            ("1.\tFirst item of a list, long enough to wrap twice " + String(repeating: "or more ", count: 12), true),
        ] {
            let label = TextLabel.make(maxChars: 72)
            g_object_ref_sink(UnsafeMutableRawPointer(label))
            defer { g_object_unref(UnsafeMutableRawPointer(label)) }
            gtk_label_set_markup(OpaquePointer(label), text)
            // Narrower than its natural width only down to its minimum (GTK measures no narrower).
            gtk_label_set_width_chars(OpaquePointer(label), 24)
            if list { TextLabel.setListColumn(label, widestMarker: "1.", gap: 6) }
            let natural = measure(label, GTK_ORIENTATION_HORIZONTAL, -1).natural
            _ = measure(label, GTK_ORIENTATION_VERTICAL, natural)
            var lines = lineStarts(gtk_label_get_layout(OpaquePointer(label))!)
            var changes = 0
            let before = TextLabel.layouts(label)
            for width in stride(from: natural - 1, through: natural - 120, by: -1) {
                let height = measure(label, GTK_ORIENTATION_VERTICAL, width).natural
                let own = gtk_label_get_layout(OpaquePointer(label))!
                let fresh = lineStarts(own, at: width)
                if lineStarts(own) != fresh || height != freshHeight(own, at: width) {
                    problems.append("\(text.prefix(10))… at \(width) px: lines \(lineStarts(own)) against \(fresh)")
                }
                if fresh != lines { changes += 1 }
                lines = fresh
            }
            let made = TextLabel.layouts(label) - before
            kept += 120 - made
            // A layout whose widest line overhangs the width by less than a pixel (a tab, a hanging
            // indent) is laid out again though its lines stay: only where a line is that close.
            if made > 2 * changes + 1 { problems.append("\(text.prefix(10))…: \(made) layouts for \(changes) changes of its lines") }
            // Wider again, where the lines wrapped: laid out anew (a wider line may take the next word).
            let wrapped = TextLabel.layouts(label)
            _ = measure(label, GTK_ORIENTATION_VERTICAL, natural + 1)
            if TextLabel.layouts(label) != wrapped + 1 { problems.append("\(text.prefix(10))…: not laid out again when wider") }
        }
        // A text that never wraps keeps its one line at any wider width.
        let label = TextLabel.make(maxChars: 72)
        g_object_ref_sink(UnsafeMutableRawPointer(label))
        defer { g_object_unref(UnsafeMutableRawPointer(label)) }
        gtk_label_set_markup(OpaquePointer(label), short)
        let width = measure(label, GTK_ORIENTATION_HORIZONTAL, -1).natural
        _ = measure(label, GTK_ORIENTATION_VERTICAL, width)
        let one = TextLabel.layouts(label)
        for wider in [width + 1, width + 50, width + 400] { _ = measure(label, GTK_ORIENTATION_VERTICAL, wider) }
        if TextLabel.layouts(label) != one { problems.append("a one-line text was laid out again when wider") }
        return Outcome(
            passed: problems.isEmpty && kept > 0, detail: problems.prefix(4).joined(separator: "; ") + " (\(kept) widths kept their layout)")
    }

    /// Where each line of `layout` starts, as laid out, or as a copy laid out at `width` pixels.
    private static func lineStarts(_ layout: OpaquePointer, at width: Int32? = nil) -> [Int32] {
        let laidOut = width.map { w -> OpaquePointer in
            let copy = pango_layout_copy(layout)!
            pango_layout_set_width(copy, w * PANGO_SCALE)
            return copy
        }
        defer { laidOut.map { g_object_unref(UnsafeMutableRawPointer($0)) } }
        var starts: [Int32] = []
        var line = pango_layout_get_lines_readonly(laidOut ?? layout)
        while let node = line {
            starts.append(node.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self).pointee.start_index)
            line = node.pointee.next
        }
        return starts
    }

    private static func freshHeight(_ layout: OpaquePointer, at width: Int32) -> Int32 {
        let copy = pango_layout_copy(layout)!
        defer { g_object_unref(UnsafeMutableRawPointer(copy)) }
        pango_layout_set_width(copy, width * PANGO_SCALE)
        var height: Int32 = 0
        pango_layout_get_size(copy, nil, &height)
        return (height + PANGO_SCALE - 1) / PANGO_SCALE
    }

    private static func shown(_ markup: String) -> (UnsafeMutablePointer<GtkWidget>, Widget) {
        let window = gtk_window_new()!
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 900, 400)
        let label = TextLabel.make(maxChars: 72)
        gtk_label_set_markup(OpaquePointer(label), markup)
        gtk_label_set_width_chars(OpaquePointer(label), 24)
        // At its natural width, like a reply's text in its bubble (a `halign` other than FILL would
        // make GTK search widths for the label's height; the app's layouts ask once).
        // In a scrolled window, like the message list (a window measures its child at its minimum width).
        let box = SingleChildLayout.box(align: GTK_ALIGN_START)
        UI.append(box, label)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), box)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), scroller)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 3) { gtk_widget_get_width(label) > 0 && framePainted(window) }
        return (window, label)
    }

    private static func framePainted(_ window: UnsafeMutablePointer<GtkWidget>) -> Bool { frameCount(window) > 1 }

    private static func frameCount(_ window: UnsafeMutablePointer<GtkWidget>) -> Int {
        gtk_widget_get_frame_clock(window).map { gdk_frame_clock_get_frame_counter($0) } ?? 0
    }

    private static func measure(_ w: Widget, _ orientation: GtkOrientation, _ forSize: Int32) -> (minimum: Int32, natural: Int32) {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(w, orientation, forSize, &minimum, &natural, nil, nil)
        return (minimum, natural)
    }

    private static func charWidth(_ w: Widget, _ count: Int32) -> Int32 {
        let metrics = pango_context_get_metrics(gtk_widget_get_pango_context(w), nil, nil)!
        defer { pango_font_metrics_unref(metrics) }
        let unit = max(pango_font_metrics_get_approximate_char_width(metrics), pango_font_metrics_get_approximate_digit_width(metrics))
        return (unit * count + PANGO_SCALE - 1) / PANGO_SCALE
    }
}
