import CGtk

// The half of `LazyColumn` that runs between frames: after a width change, a frame callback
// measures and shows the hidden children a few a frame, nearest the view first; a column that
// parks children follows its scrolled window's view; and the scroll position moves with blocks
// above the view whose height changed, so the text being read stays where it is.

/// What the columns' frame callbacks have spent in the current frame (main thread only).
private final class FrameBudget: @unchecked Sendable {
    static let shared = FrameBudget()
    var frame = -1
    /// Microseconds of measuring.
    var spent = 0
    /// Height of the children shown (to be drawn in this frame), in pixels.
    var admitted = 0.0
}

/// How long the frame callbacks measure hidden children per frame, in microseconds (all columns).
private let validationBudget = 3_000

/// Allocates the column again whenever its scrolled window's view moves, so that parked children
/// coming near the view are drawn (a scroll moves the column without allocating it). Connected
/// once, for columns that park children; GLib disconnects it when the column is finalized.
func followView(of box: UnsafeMutablePointer<GtkWidget>, _ column: ColumnState) {
    guard let scroller = gtk_widget_get_ancestor(box, gtk_scrolled_window_get_type()),
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller)),
        column.followedAdjustment != adjustment
    else { return }
    column.followedAdjustment = adjustment
    column.valueAtAllocation = gtk_adjustment_get_value(adjustment)
    // Not for the columns' own moves of the view (scroll anchoring): an allocation then would lay
    // out estimated blocks that came near without moving the view by their change. Nor for moves of
    // less than a quarter screen: a parked child is at least that far from the view.
    let moved: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { pointer, adjustment in
        guard let pointer, let adjustment, !LazyColumn.movingTheView else { return }
        let box = pointer.assumingMemoryBound(to: GtkWidget.self), view = adjustment.assumingMemoryBound(to: GtkAdjustment.self)
        guard let column = columnState(of: box),
            abs(gtk_adjustment_get_value(view) - column.valueAtAllocation) >= gtk_adjustment_get_page_size(view) / 4
        else { return }
        gtk_widget_queue_allocate(box)
    }
    g_signal_connect_object(adjustment, "value-changed", unsafeBitCast(moved, to: GCallback.self), box, G_CONNECT_SWAPPED)
}

/// Moves the scrolled window's view (and its end, so the distance to the end stays: the message
/// list follows new messages while it is near zero) by `shift` pixels; the list sets both again
/// when it is allocated. The message list does not take this for the user scrolling.
func moveView(of box: UnsafeMutablePointer<GtkWidget>, by shift: Double) {
    guard shift != 0, let scroller = gtk_widget_get_ancestor(box, gtk_scrolled_window_get_type()),
        let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(scroller))
    else { return }
    LazyColumn.movingTheView = true
    defer { LazyColumn.movingTheView = false }
    gtk_adjustment_set_upper(adjustment, gtk_adjustment_get_upper(adjustment) + shift)
    gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + shift)
}

/// Shows the hidden children, nearest the view first, a few a frame.
func startValidating(_ box: UnsafeMutablePointer<GtkWidget>, _ column: ColumnState) {
    guard !column.validating else { return }
    column.validating = true
    // GTK keeps the callback as long as it returns true (and drops it with the widget).
    gtk_widget_add_tick_callback(
        box,
        { widget, _, _ in
            guard let widget, let column = columnState(of: widget) else { return 0 }
            validateSome(widget, column)
            return column.validating ? 1 : 0
        }, nil, nil)
}

/// One frame's share: measures (when only estimated) and admits hidden children, nearest the
/// view first, until a few milliseconds of measuring or half a screen of text (to be drawn in
/// this frame) is reached.
private func validateSome(_ box: UnsafeMutablePointer<GtkWidget>, _ column: ColumnState) {
    let band = nearBand(box)
    let center = band.map { ($0.top + $0.bottom) / 2 } ?? 0
    let screen = band?.screen ?? .infinity
    var pending: [(child: UnsafeMutablePointer<GtkWidget>, y: Double, distance: Double)] = []
    var y = 0.0
    for (child, entry) in column.children(of: box) {
        let record = entry.takeUnretainedValue()
        if !isAdmitted(record) { pending.append((child, y, abs(y + Double(record.height) / 2 - center))) }
        y += Double(record.height + column.spacing)
    }
    var resize = column.resizeNeeded
    column.resizeNeeded = false
    if pending.isEmpty { column.validating = false }
    // One budget per frame for every column: after a resize each realized message's column has
    // blocks to show, and their frame callbacks all run in the same frame.
    let budget = FrameBudget.shared
    let frame = gtk_widget_get_frame_clock(box).map { gdk_frame_clock_get_frame_counter($0) } ?? -1
    if budget.frame != frame { (budget.frame, budget.spent, budget.admitted) = (frame, 0, 0) }
    var admitted = 0
    var shiftAbove = 0.0
    for item in pending.sorted(by: { $0.distance < $1.distance }) {
        guard budget.spent < validationBudget, budget.admitted < screen / 2, let record = childRecord(of: item.child) else { break }
        let started = g_get_monotonic_time()
        if !record.exact {
            let estimate = record.height
            measureExactly(item.child, record, width: record.width)
            resize = resize || record.height != estimate
            if let band, item.y + Double(estimate) <= band.viewTop { shiftAbove += Double(record.height - estimate) }
        }
        record.shown = .at(width: record.width)
        admitted += 1
        budget.admitted += Double(record.height)
        budget.spent += g_get_monotonic_time() - started
    }
    if resize { gtk_widget_queue_resize(box) } else if admitted > 0 { gtk_widget_queue_allocate(box) }
    // Blocks above the view changed height: move the view with them.
    moveView(of: box, by: shiftAbove)
}
