import CGtk
import Foundation
import GtkKit

/// `TextLabel`: wrapped text measured the way GtkLabel measures it, with one Pango layout per
/// change instead of three or four, and always drawn at the width it was given.
@MainActor
enum TextLabelChecks {
    static let all = [isALabel, sameSizesAsGtkLabel, laidOutOncePerChange, drawnAtItsAllocation]

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
    /// label keeps drawing its text at the width it was given.
    static let drawnAtItsAllocation = Check(name: "measured at another width, a text label still draws at its own") {
        let (window, label) = shown(paragraph)
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        _ = measure(label, GTK_ORIENTATION_VERTICAL, 150)
        let layout = gtk_label_get_layout(OpaquePointer(label))
        let width = pango_layout_get_width(layout) / PANGO_SCALE
        return Outcome(passed: width == gtk_widget_get_width(label), detail: "layout \(width) px, label \(gtk_widget_get_width(label)) px")
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
