import CGtk

// The third part of `LazyColumn`: the children its owner declared frozen (a reply's closed Markdown
// blocks) are summed once at the column's width, and later passes neither walk nor measure them,
// except those near the view. So a streaming reply's frame costs what changed and what is on
// screen, not the number of blocks above: otherwise the column's own time grows with the reply,
// for blocks that cannot have changed.
//
// Why the owner's word, not GTK's: GTK 4.8 tells a container nothing when a child queues a resize,
// so "unchanged" can only be learnt by asking every child (the cost this avoids). What the owner
// cannot know — a new font, scale or text direction, a new stylesheet — ends the sums here
// (`SettledPrefix.isCurrent`), and a near child that measures otherwise than summed does too.

/// The frozen children the column has summed at `width`: their tops, the end of the last one
/// (spacing included), their widest minimum and natural widths, and which were near the view.
struct SettledPrefix {
    var count = 0
    var width: Int32 = -1
    var serial: UInt32 = 0
    var generation = 0
    var tops: [Int32] = []
    var end: Int32 = 0
    var minimum: Int32 = 0
    var natural: Int32 = 0
    /// The first `freeCount` children's minimum and natural heights without a width, summed the same
    /// way, once the column is asked for its height without one.
    var freeCount = 0
    var freeMinimum: Int32 = 0
    var freeNatural: Int32 = 0
    /// The summed children near the view at the last allocation (drawn; all others are parked).
    var near: Range<Int> = 0..<0

    /// Whether the sums still hold: the same font settings and stylesheets, no more than `frozen`.
    func isCurrent(serial: UInt32, frozen: Int) -> Bool {
        count > 0 && count <= frozen && self.serial == serial && generation == LazyColumn.styleGeneration
    }

    /// The summed children whose span meets `top...bottom`.
    func indices(meeting top: Double, _ bottom: Double, heights: (Int) -> Int32) -> Range<Int> {
        // The first child ending at or below `top`, then on while children start above `bottom`.
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if Double(tops[middle] + heights(middle)) < top { low = middle + 1 } else { high = middle }
        }
        var upper = low
        while upper < count, Double(tops[upper]) <= bottom { upper += 1 }
        return low..<upper
    }
}

extension LazyColumn {
    /// The app's word that the first `count` children of the column will change neither content nor
    /// size until it says otherwise (a smaller count: before it removes or replaces any of them).
    /// The column then sums them once and leaves them alone, but for those near the view.
    public static func setFrozen(_ box: Widget, count: Int) {
        guard let column = columnState(of: box) else { return }
        column.frozen = max(0, count)
        if column.settled.count > column.frozen { column.settled = SettledPrefix() }
    }

    /// How many children the column's passes have visited since it was made (checks: a streaming
    /// reply's frames visit what changed and what is near the view, not every block).
    public static func visits(_ box: Widget) -> Int { columnState(of: box)?.visits ?? 0 }

    /// Bumped whenever stylesheets or the theme change: sizes summed before may no longer hold.
    nonisolated(unsafe) public internal(set) static var styleGeneration = 0

    /// Sizes of frozen children summed before no longer hold (the app's stylesheet was replaced).
    public static func stylesChanged() { styleGeneration += 1 }
}

/// Sums the frozen children from where the sums end, as far as they are measured, shown and placed at
/// `width` (after a width change the frame callback admits them first).
func extendSettled(_ column: ColumnState, width: Int32) {
    if !column.settled.isCurrent(serial: column.contextSerial, frozen: column.frozen) || column.settled.width != width {
        column.settled = SettledPrefix()
        (column.settled.width, column.settled.serial, column.settled.generation) = (width, column.contextSerial, LazyColumn.styleGeneration)
    }
    var settled = column.settled
    let limit = min(column.frozen, column.entries.count)
    while settled.count < limit {
        let (child, entry) = column.entries[settled.count]
        let record = entry.takeUnretainedValue()
        guard isAdmitted(record), record.width == width, record.allocated.y == settled.end, record.allocated.width == width else { break }
        let (minimum, natural) = widths(of: child, record, serial: column.contextSerial)
        settled.tops.append(settled.end)
        settled.end += record.height + column.spacing
        (settled.minimum, settled.natural) = (max(settled.minimum, minimum), max(settled.natural, natural))
        if !record.parked {
            settled.near = settled.near.isEmpty ? settled.count..<settled.count + 1 : settled.near.lowerBound..<settled.count + 1
        }
        settled.count += 1
    }
    column.settled = settled
}

/// The settled children for an allocation at the summed width: those near the view drawn and
/// allocated (measured first, which also checks they did not change), those that were near and no
/// longer are parked, all others left as they are. False if one turned out changed: the sums are
/// dropped and the caller lays everything out.
func allocateSettled(
    _ column: ColumnState, band: (top: Double, bottom: Double, viewTop: Double, screen: Double)?,
    focusChild: UnsafeMutablePointer<GtkWidget>?
) -> Bool {
    let settled = column.settled
    let heights = { (index: Int) in column.entries[index].record._withUnsafeGuaranteedRef { $0.height } }
    let near = band.map { settled.indices(meeting: $0.top, $0.bottom, heights: heights) } ?? 0..<settled.count
    var visit = Set(near).union(settled.near)
    // The focus child stays drawn wherever it is (it is then also visited next time, below).
    let focusIndex = focusChild.flatMap { focus in column.entries.prefix(settled.count).firstIndex { $0.child == focus } }
    if let focusIndex { visit.insert(focusIndex) }
    for index in visit.sorted() {
        let (child, entry) = column.entries[index]
        let record = entry.takeUnretainedValue()
        column.visits += 1
        var measured: Int32 = 0
        gtk_widget_measure(child, GTK_ORIENTATION_VERTICAL, settled.width, nil, &measured, nil, nil)
        guard measured == record.height else {
            // Changed after all (a stylesheet the column was not told of): measured anew, all of them.
            column.settled = SettledPrefix()
            column.resizeNeeded = true
            return false
        }
        let isNear = near.contains(index)
        record.nearView = isNear
        place(
            child, record, at: GtkAllocation(x: 0, y: settled.tops[index], width: settled.width, height: record.height),
            parked: !isNear && child != focusChild)
    }
    if let index = focusIndex, !near.contains(index) {
        column.settled.near = near.isEmpty ? index..<index + 1 : min(near.lowerBound, index)..<max(near.upperBound, index + 1)
    } else {
        column.settled.near = near
    }
    return true
}
