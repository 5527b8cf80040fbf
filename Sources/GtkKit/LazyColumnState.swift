import CGtk

// The part of `LazyColumn` that is state: what the column knows of each child (`ChildRecord`, kept on
// the child) and of itself (`ColumnState`, kept on the column), and how the passes find them. The
// layout is in `LazyColumn.swift`, the frame callback in `LazyColumnValidation.swift`, the sums of
// frozen children in `LazyColumnSettled.swift`.

/// What the column knows of one child: its height at `width`, measured or estimated, and the
/// last measured pair the estimates start from. Kept on the child, so it goes with the child.
final class ChildRecord: @unchecked Sendable {
    var width: Int32 = -2
    var height: Int32 = 0
    var exact = false
    var measuredWidth: Int32 = 0
    var measuredHeight: Int32 = 0
    /// Whether the child was near the view at the column's last allocation.
    var nearView = true
    /// At most this many characters' width is asked for the child (`limitNaturalWidth`).
    var naturalWidthChars: Int32 = -1
    /// Whether the child is shown (allocated and drawn), and at which width.
    var shown = Shown.new
    /// `naturalWidthChars` in pixels, for the column's Pango context at `capSerial` (a block's font is
    /// set when it is made; a new font, scale or resolution for the window changes the column's
    /// context too): the column asks every child for its width at each measure, and the font's
    /// metrics cost more than all else.
    var cap: Int32 = 0
    var capSerial: UInt32 = 0
    /// Where the last allocation placed it, and whether it was parked there: a child parked at the
    /// same place and size stays as it is without being allocated again.
    var allocated = GtkAllocation(x: 0, y: -1, width: 0, height: 0)
    var parked = false

    enum Shown: Equatable {
        /// Never allocated: shown at once, as in a GtkBox.
        case new
        case hidden
        case at(width: Int32)
    }
}

final class ColumnState: @unchecked Sendable {
    let spacing: Int32
    var validating = false
    /// A child's height changed during an allocation: the column measures again at the next frame.
    var resizeNeeded = false
    /// The width of the last allocation (a new one moves the view to keep the text being read).
    var allocatedWidth: Int32 = -1
    /// The scrolled window's adjustment whose moves allocate the column again (parked children).
    var followedAdjustment: UnsafeMutablePointer<GtkAdjustment>?
    /// The followed adjustment's value at the last allocation.
    var valueAtAllocation = 0.0
    /// The children as of the last pass, with their records: each pass (measure across, measure down,
    /// allocate) walks the children, and looking every record up on its widget (GObject data, a
    /// locked search) was a fifth of the column's own time at the end of a long reply.
    /// The list holds a reference on each child: a child removed and finalized could otherwise be
    /// followed by a new one at the same address, taken for the old one with its freed record
    /// (AddressSanitizer caught exactly that). The records live as long as their children (GObject
    /// data) and are kept unretained: retain and release per child and pass were a fifth of the
    /// column's own time too.
    var entries: [(child: UnsafeMutablePointer<GtkWidget>, record: Unmanaged<ChildRecord>)] = []
    /// The column's Pango context serial at the start of the current pass (see `ChildRecord.cap`).
    var contextSerial: UInt32 = 0
    /// How many leading children the owner declared unchanging (`LazyColumn.setFrozen`), and what
    /// the column summed of them (`LazyColumnSettled.swift`).
    var frozen = 0
    var settled = SettledPrefix()
    /// Children visited by the passes so far (`LazyColumn.visits`).
    var visits = 0
    init(spacing: Int32) { self.spacing = spacing }

    deinit { for entry in entries { g_object_unref(UnsafeMutableRawPointer(entry.child)) } }

    /// Whether the passes may take the settled children's sums instead of visiting them.
    var usesSettled: Bool { settled.count > 0 }

    /// The children that take part in the layout, in order, with their records; the list of the last
    /// pass is kept while the children are the same.
    func children(of box: UnsafeMutablePointer<GtkWidget>) -> [(child: UnsafeMutablePointer<GtkWidget>, record: Unmanaged<ChildRecord>)] {
        contextSerial = pango_context_get_serial(gtk_widget_get_pango_context(box))
        if settled.count > 0,
            !settled.isCurrent(serial: contextSerial, frozen: frozen)
                || gtk_widget_get_parent(entries[settled.count - 1].child) != box
        {
            settled = SettledPrefix()
        }
        // The settled children are as they were (the owner's word): the walk starts after them.
        var index = settled.count
        var child = index > 0 ? gtk_widget_get_next_sibling(entries[index - 1].child) : gtk_widget_get_first_child(box)
        while let c = child {
            if gtk_widget_should_layout(c) != 0 {
                if index < entries.count {
                    if entries[index].child != c {
                        g_object_unref(UnsafeMutableRawPointer(entries[index].child))
                        entries[index] = (c, .passUnretained(makeChildRecord(for: c)))
                        g_object_ref(UnsafeMutableRawPointer(c))
                    }
                } else {
                    entries.append((c, .passUnretained(makeChildRecord(for: c))))
                    g_object_ref(UnsafeMutableRawPointer(c))
                }
                index += 1
            }
            child = gtk_widget_get_next_sibling(c)
        }
        if index < entries.count {
            for entry in entries[index...] { g_object_unref(UnsafeMutableRawPointer(entry.child)) }
            entries.removeLast(entries.count - index)
        }
        return entries
    }
}

let columnKey = "bos-lazy-column"
/// A quark, not a string: the column looks up every child's record at each measure and allocation,
/// and a string key is hashed into a quark at each lookup. `g_quark_from_string`, which copies: a
/// Swift string passed to C is a temporary, and `g_quark_from_static_string` kept the pointer to
/// it — GLib compared later string keys against freed memory (a crash in any `g_object_get_data`,
/// found with AddressSanitizer; `CStringLifetimeTests` keeps Swift sources from doing it again).
private let recordKey = g_quark_from_string("bos-lazy-column-child")

func columnObject(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GObject> {
    UnsafeMutablePointer<GObject>(OpaquePointer(widget))
}

// Found by the layout (`LazyColumn.swift`), its frame callback
// (`LazyColumnValidation.swift`) and its sums (`LazyColumnSettled.swift`).

func columnState(of box: UnsafeMutablePointer<GtkWidget>) -> ColumnState? {
    g_object_get_data(columnObject(box), columnKey).map { Unmanaged<ColumnState>.fromOpaque($0).takeUnretainedValue() }
}

func childRecord(of child: UnsafeMutablePointer<GtkWidget>) -> ChildRecord? {
    g_object_get_qdata(columnObject(child), recordKey).map { Unmanaged<ChildRecord>.fromOpaque($0).takeUnretainedValue() }
}

func makeChildRecord(for child: UnsafeMutablePointer<GtkWidget>) -> ChildRecord {
    if let existing = childRecord(of: child) { return existing }
    let new = ChildRecord()
    g_object_set_qdata_full(columnObject(child), recordKey, Unmanaged.passRetained(new).toOpaque()) {
        Unmanaged<ChildRecord>.fromOpaque($0!).release()
    }
    return new
}

/// Measured and shown at the column's current width: drawn, or parked when far from the view; what
/// is not admitted waits for the frame callback.
func isAdmitted(_ record: ChildRecord) -> Bool { record.exact && record.shown == .at(width: record.width) }

func isAdmitted(_ child: UnsafeMutablePointer<GtkWidget>) -> Bool { childRecord(of: child).map(isAdmitted) ?? false }

func columnChildren(of box: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
    var list: [UnsafeMutablePointer<GtkWidget>] = []
    var child = gtk_widget_get_first_child(box)
    while let c = child {
        if gtk_widget_should_layout(c) != 0 { list.append(c) }
        child = gtk_widget_get_next_sibling(c)
    }
    return list
}
