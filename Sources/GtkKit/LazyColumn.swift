import CGtk
import CTextLabel

/// A vertical column of blocks (a reply's Markdown) whose cost after a width change follows what
/// is on screen, not the column's length.
///
/// Why: GTK 4.8's list view keeps up to 200 rows realized and measures every one of them at each
/// new width; a wrapped label's height at a new width is a full Pango layout, so resizing the
/// window with a 100 KB reply in the list laid out all of it, frame after frame (over 300 ms).
///
/// How: after a width change, a block that was not near the view is not drawn (drawing wrapped
/// text at a new width is a new layout) and, unless GTK still knows its height at that width,
/// gets an estimated one (its text's area spread over the new width). A frame callback then
/// measures and shows the hidden blocks nearest the view first, a few milliseconds and half a
/// screen of text a frame; where a block above the view turns out taller or shorter than
/// estimated, it moves the scroll position by the difference, so the text being read stays
/// where it is. New blocks, blocks near the view, blocks whose height does not depend on the
/// width, and any column not inside a scrolled window are always measured and shown: while a
/// reply streams (the width does not change) the column behaves as a vertical `GtkBox`, except
/// that a block far from the view is not drawn (parked): GTK draws every mapped child, in view or
/// not, so a growing reply cost more to draw every frame (100 KB: paint 2.3 → 5.5 ms a frame from
/// the stream's first quarter to its last). A parked block keeps its layout; it is drawn again as
/// soon as the view comes near it (the column is allocated again whenever the view moves).
@MainActor
public enum LazyColumn {
    public static func box(spacing: Int32) -> Widget {
        let box = UI.vbox()
        let column = ColumnState(spacing: spacing)
        g_object_set_data_full(columnObject(box), columnKey, Unmanaged.passRetained(column).toOpaque()) {
            Unmanaged<ColumnState>.fromOpaque($0!).release()
        }
        gtk_widget_set_layout_manager(box, gtk_custom_layout_new({ _ in GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }, measure, allocate))
        // What the owner of frozen children cannot know ends the column's sums of them: a new text
        // direction (here), a new theme (once for all columns), new stylesheets (`ApplicationStyle`).
        Signals.connect(UnsafeMutableRawPointer(box), "direction-changed", withArgument: { _ in column.settled = SettledPrefix() })
        followThemeChanges()
        return box
    }

    nonisolated(unsafe) private static var followsThemeChanges = false

    private static func followThemeChanges() {
        guard !followsThemeChanges, let settings = gtk_settings_get_default() else { return }
        followsThemeChanges = true
        for property in ["notify::gtk-theme-name", "notify::gtk-application-prefer-dark-theme"] {
            Signals.connect(UnsafeMutableRawPointer(settings), property, withArgument: { _ in LazyColumn.stylesChanged() })
        }
    }

    /// The children hidden until measured or admitted at the column's width (placed at a measured
    /// or estimated height, not drawn): what a width change leaves to the frame callback.
    public static func hiddenChildren(_ box: Widget) -> [Widget] {
        columnChildren(of: box).filter { gtk_widget_get_child_visible($0) == 0 && !isAdmitted($0) }
    }

    /// The children not drawn because they are far from the view, though laid out at the column's
    /// width: drawn again, unchanged, when the view comes near.
    public static func parkedChildren(_ box: Widget) -> [Widget] {
        columnChildren(of: box).filter { gtk_widget_get_child_visible($0) == 0 && isAdmitted($0) }
    }

    /// True while a column moves its scrolled window's view to keep the text in view where it
    /// was: a list that follows new messages must not take that for the user scrolling away.
    /// (Main thread only; the frame callback that sets it is not isolated.)
    nonisolated(unsafe) public internal(set) static var movingTheView = false

    /// Makes `child` ask the column for at most `chars` characters' width of its font, as GtkLabel's
    /// `max-width-chars` would, for blocks that are more than one label (a list, a quote): a plain
    /// GtkLabel with `max-width-chars` lays its text out once more each time it is measured. A
    /// `TextLabel` caps itself at the same width with its one layout, so the cap here changes
    /// nothing for a paragraph.
    public static func limitNaturalWidth(of child: Widget, chars: Int32) {
        let record = makeChildRecord(for: child)
        (record.naturalWidthChars, record.capSerial) = (chars, 0)
    }

    /// Whether `widget` is a lazy column.
    public static func isColumn(_ widget: Widget) -> Bool { columnState(of: widget) != nil }

    /// The space between two children.
    public static func spacing(_ box: Widget) -> Int32 { columnState(of: box)?.spacing ?? 0 }

    /// Whether the column is still showing hidden children, a few a frame (checks wait for it).
    public static func isValidating(_ box: Widget) -> Bool { columnState(of: box)?.validating ?? false }
}

/// Places a child that is measured at the column's width: drawn, or far from the view parked —
/// placed (its size is unchanged, so GTK only moves it; where it is stays true for coordinates and
/// the accessibility tree) but not drawn. One parked before at the same place and size is left as it
/// is: allocated again it would only be moved to where it is (GTK's checks for each of hundreds of
/// blocks, at every change of a streaming reply, were a sixth of the column's own time).
func place(_ child: UnsafeMutablePointer<GtkWidget>, _ record: ChildRecord, at allocation: GtkAllocation, parked park: Bool) {
    var allocation = allocation
    let before = record.allocated
    let unmoved = before.y == allocation.y && before.width == allocation.width && before.height == allocation.height
    if !(park && record.parked && unmoved) {
        gtk_widget_set_child_visible(child, park ? 0 : 1)
        gtk_widget_size_allocate(child, &allocation, -1)
    }
    (record.allocated, record.parked) = (allocation, park)
}

func measureExactly(_ child: UnsafeMutablePointer<GtkWidget>, _ record: ChildRecord, width: Int32) {
    var height: Int32 = 0
    gtk_widget_measure(child, GTK_ORIENTATION_VERTICAL, width, nil, &height, nil, nil)
    (record.width, record.height, record.exact) = (width, height, true)
    (record.measuredWidth, record.measuredHeight) = (width, height)
}

/// The child's height at `width`: measured when it must be (GTK's own cache answers for a child
/// that did not change), estimated when it may be.
private func height(of child: UnsafeMutablePointer<GtkWidget>, _ record: ChildRecord, width: Int32, serial: UInt32) -> Int32 {
    if record.width == width, !record.exact { return record.height }
    let mayEstimate =
        record.measuredWidth > 0 && record.measuredWidth != width && !record.nearView
        && gtk_widget_get_request_mode(child) == GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH
    guard mayEstimate else {
        measureExactly(child, record, width: width)
        return record.height
    }
    // The text's area stays the same: a block as wide as its natural width (as capped, as labels cap
    // it) keeps its height. An estimate only places blocks until they are measured; where the text
    // being read stays does not depend on it (`allocate`'s anchor).
    let (minimum, natural) = widths(of: child, record, serial: serial)
    let before = Double(min(record.measuredWidth, max(natural, 1)))
    let after = Double(min(max(width, minimum), max(natural, 1)))
    let estimate = Int32((Double(record.measuredHeight) * before / after).rounded())
    (record.width, record.height, record.exact) = (width, max(estimate, 1), false)
    return record.height
}

private let measure: GtkCustomMeasureFunc = { box, orientation, forSize, minimum, natural, _, _ in
    guard let box else { return }
    let (low, high) = measureColumn(box, orientation, forSize)
    minimum?.pointee = low
    natural?.pointee = high
}

private func measureColumn(_ box: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation, _ forSize: Int32) -> (Int32, Int32) {
    guard let column = columnState(of: box) else { return (0, 0) }
    let list = column.children(of: box)
    var low: Int32 = 0, high: Int32 = 0
    let serial = column.contextSerial
    let settled = column.settled
    if orientation == GTK_ORIENTATION_HORIZONTAL {
        (low, high) = (settled.minimum, settled.natural)
        for (child, entry) in list[settled.count...] {
            column.visits += 1
            let (m, n) = entry._withUnsafeGuaranteedRef { widths(of: child, $0, serial: serial) }
            (low, high) = (max(low, m), max(high, n))
        }
        return (low, high)
    }
    // The settled children's heights are known at their width, and without one once asked for
    // (sums with the spacing after each child; the last child's is taken off at the end).
    let spacing = column.spacing
    var first = 0
    if forSize >= 0, settled.count > 0, forSize == settled.width {
        (first, low, high) = (settled.count, settled.end, settled.end)
    } else if forSize < 0, settled.freeCount > 0 {
        (first, low, high) = (settled.freeCount, settled.freeMinimum, settled.freeNatural)
    }
    for index in first..<list.count {
        let (child, entry) = list[index]
        column.visits += 1
        if forSize < 0 {
            var m: Int32 = 0, n: Int32 = 0
            gtk_widget_measure(child, orientation, -1, &m, &n, nil, nil)
            (low, high) = (low + m + spacing, high + n + spacing)
            if index == column.settled.freeCount, index < column.settled.count {
                column.settled.freeCount += 1
                column.settled.freeMinimum += m + spacing
                column.settled.freeNatural += n + spacing
            }
        } else {
            let h = entry._withUnsafeGuaranteedRef { height(of: child, $0, width: forSize, serial: serial) }
            (low, high) = (low + h + spacing, high + h + spacing)
        }
    }
    return list.isEmpty ? (0, 0) : (low - spacing, high - spacing)
}

/// The child's minimum and natural width, the natural one at most its `limitNaturalWidth`.
func widths(of child: UnsafeMutablePointer<GtkWidget>, _ record: ChildRecord, serial: UInt32) -> (minimum: Int32, natural: Int32) {
    var minimum: Int32 = 0, natural: Int32 = 0
    gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
    if record.naturalWidthChars > 0 { natural = max(minimum, min(natural, cap(of: child, record, serial: serial))) }
    return (minimum, natural)
}

/// `naturalWidthChars` characters of the child's font, in pixels, as GtkLabel reckons them for
/// `max-width-chars` (the wider of an average character and an average digit; `TextLabel` caps its
/// text at the same width). Kept until the column's Pango context changes (a new font or scale).
private func cap(of child: UnsafeMutablePointer<GtkWidget>, _ record: ChildRecord, serial: UInt32) -> Int32 {
    if record.capSerial != serial { (record.cap, record.capSerial) = (bos_char_width(child, record.naturalWidthChars), serial) }
    return record.cap
}

/// The part of the column near the scrolled window's view (a quarter screen either side), in the
/// column's coordinates; nil outside a scrolled window (then everything counts as near). The
/// margin is small because whatever is near is laid out and drawn in the frame of a resize
/// (GTK draws a mapped child whether or not it is in view); the frame callback does the rest.
func nearBand(_ box: UnsafeMutablePointer<GtkWidget>) -> (top: Double, bottom: Double, viewTop: Double, screen: Double)? {
    guard let scroller = gtk_widget_get_ancestor(box, gtk_scrolled_window_get_type()) else { return nil }
    var x = 0.0, y = 0.0
    guard gtk_widget_translate_coordinates(scroller, box, 0, 0, &x, &y) != 0 else { return nil }
    let screen = Double(gtk_widget_get_height(scroller))
    guard screen > 0 else { return nil }
    return (y - screen / 4, y + screen * 5 / 4, y, screen)
}

private let allocate: GtkCustomAllocateFunc = { box, width, _, _ in
    guard let box, let column = columnState(of: box) else { return }
    let band = nearBand(box)
    let list = column.children(of: box)
    // At a new width the blocks above the view change height (estimated or measured): the first
    // block reaching into the view keeps its place in it (scroll anchoring). Where the blocks were
    // is where they were placed at the old width: GTK measures the column at the new width before
    // allocating it, so the heights the column holds are the new width's estimates by now.
    var anchor: (child: UnsafeMutablePointer<GtkWidget>, oldY: Double)?
    if column.allocatedWidth >= 0, column.allocatedWidth != width, let band {
        let oldWidth = column.allocatedWidth
        for (child, entry) in list {
            let (shown, placed) = entry._withUnsafeGuaranteedRef { ($0.shown, $0.allocated) }
            guard shown == .at(width: oldWidth), placed.y >= 0 else { continue }
            if Double(placed.y + placed.height) > band.viewTop { anchor = (child, Double(placed.y)); break }
        }
    }
    let sameWidth = column.allocatedWidth == width
    column.allocatedWidth = width
    if let adjustment = column.followedAdjustment { column.valueAtAllocation = gtk_adjustment_get_value(adjustment) }
    var shift = 0.0
    var y: Int32 = 0
    var hidden = false
    var parked = false
    let focusChild = gtk_widget_get_focus_child(box)
    // The settled children (`LazyColumnSettled.swift`): only those near the view are visited.
    var first = 0
    if column.usesSettled {
        if sameWidth, column.settled.width == width, allocateSettled(column, band: band, focusChild: focusChild) {
            first = column.settled.count
            y = column.settled.end
            parked = column.settled.near.count < first
        } else {
            column.settled = SettledPrefix()
        }
    }
    for (child, entry) in list[first...] {
        column.visits += 1
        let record = entry.takeUnretainedValue()
        if let anchor, child == anchor.child { shift = Double(y) - anchor.oldY }
        var h = height(of: child, record, width: width, serial: column.contextSerial)
        let near = band.map { Double(y + h) >= $0.top && Double(y) <= $0.bottom } ?? true
        record.nearView = near
        if near, !record.exact {
            // Came near the view since the column was measured: laid out now; the column's
            // height follows at the next frame. Above the view, its change moves the view with it
            // (at a width change the anchor's shift already counts it).
            let estimate = h
            measureExactly(child, record, width: width)
            h = record.height
            column.resizeNeeded = true
            if anchor == nil, let band, Double(y + estimate) <= band.viewTop { shift += Double(h - estimate) }
        }
        // A child far from the view that was shown at another width is shown again only once
        // admitted at this one: showing it means drawing it, and drawing wrapped text at a new
        // width is a new layout, however well its height is known (GTK draws a mapped child
        // whether or not it is in view). A new child is shown at once, as in a GtkBox.
        if near || record.shown == .new { record.shown = .at(width: width) }
        if record.exact, record.shown == .at(width: width) {
            // The block holding the keyboard focus (a link, a selection) stays drawn wherever it is.
            let park = !near && child != focusChild
            place(child, record, at: GtkAllocation(x: 0, y: y, width: width, height: h), parked: park)
            parked = parked || park
        } else {
            // Hidden until admitted again, even back at the width it was last drawn at: showing
            // hundreds of children at once costs a frame of its own.
            gtk_widget_set_child_visible(child, 0)
            record.shown = .hidden
            record.parked = false
            hidden = true
        }
        y += h + column.spacing
    }
    if column.frozen > column.settled.count, !hidden { extendSettled(column, width: width) }
    if hidden || column.resizeNeeded { startValidating(box, column) }
    if parked { followView(of: box, column) }
    moveView(of: box, by: shift)
}
