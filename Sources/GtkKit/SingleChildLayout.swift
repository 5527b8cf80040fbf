import CGtk

/// A box that holds one child at its natural width, capped by the box's own width, placed at the
/// start, end or centre (right-to-left aware) — or filling it. It asks the child for its width
/// once (GTK caches that) and for its height at that one width.
///
/// Why not a horizontal `GtkBox` with a spacer: GtkBoxLayout shares width out by measuring its
/// children at many widths, and a `halign` other than FILL makes GTK measure a height-for-width
/// child's width for its height, a search over widths. Around wrapped text every one of those is
/// a Pango layout: a streaming reply paid hundreds per frame. This layout pays one.
///
/// It also counts the measures GTK actually runs (cache misses), so checks can prove that a
/// widget was not measured again.
@MainActor
public enum SingleChildLayout {
    /// A new box with this layout; `UI.append` adds its one child.
    public static func box(align: GtkAlign = GTK_ALIGN_FILL) -> Widget {
        let box = UI.vbox()
        gtk_widget_set_layout_manager(box, gtk_custom_layout_new(requestMode, measure, allocate))
        setAlign(box, align)
        return box
    }

    public static func setAlign(_ box: Widget, _ align: GtkAlign) {
        g_object_set_data(UnsafeMutablePointer(OpaquePointer(box)), alignKey, UnsafeMutableRawPointer(bitPattern: Int(align.rawValue) + 1))
    }

    /// How many times GTK measured this box (either orientation) since it was made.
    public static func measureCount(_ box: Widget) -> Int {
        Int(bitPattern: g_object_get_data(UnsafeMutablePointer(OpaquePointer(box)), countKey))
    }
}

private let alignKey = "bos-single-child-align"
private let countKey = "bos-single-child-measures"

private func child(of box: UnsafeMutablePointer<GtkWidget>?) -> UnsafeMutablePointer<GtkWidget>? {
    var child = gtk_widget_get_first_child(box)
    while let c = child, gtk_widget_should_layout(c) == 0 { child = gtk_widget_get_next_sibling(c) }
    return child
}

private func align(of box: UnsafeMutablePointer<GtkWidget>?) -> GtkAlign {
    let stored = Int(bitPattern: g_object_get_data(UnsafeMutablePointer(OpaquePointer(box)), alignKey))
    return stored > 0 ? GtkAlign(rawValue: UInt32(stored - 1)) : GTK_ALIGN_FILL
}

/// The child's width in `available`: its natural width (at least its minimum), at most `available`.
private func childWidth(_ child: UnsafeMutablePointer<GtkWidget>, _ available: Int32, fill: Bool) -> Int32 {
    var minimum: Int32 = 0, natural: Int32 = 0
    gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
    return max(minimum, fill ? available : min(available, natural))
}

private let requestMode: GtkCustomRequestModeFunc = { _ in GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }

private let measure: GtkCustomMeasureFunc = { box, orientation, forSize, minimum, natural, _, _ in
    let object = UnsafeMutablePointer<GObject>(OpaquePointer(box))
    g_object_set_data(object, countKey, UnsafeMutableRawPointer(bitPattern: Int(bitPattern: g_object_get_data(object, countKey)) + 1))
    guard let child = child(of: box) else { return }
    var childMinimum: Int32 = 0, childNatural: Int32 = 0
    if orientation == GTK_ORIENTATION_HORIZONTAL {
        gtk_widget_measure(child, orientation, -1, &childMinimum, &childNatural, nil, nil)
    } else {
        // Without a width (GtkListView asks that of its rows), the child's height at its natural
        // width: the same layout as an allocation will use, where -1 would lay wrapped text out
        // unwrapped once more.
        var naturalWidth: Int32 = 0
        if forSize < 0 { gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, nil, &naturalWidth, nil, nil) }
        let width = forSize < 0 ? naturalWidth : childWidth(child, forSize, fill: align(of: box) == GTK_ALIGN_FILL)
        gtk_widget_measure(child, orientation, width, &childMinimum, &childNatural, nil, nil)
    }
    minimum?.pointee = childMinimum
    natural?.pointee = childNatural
}

private let allocate: GtkCustomAllocateFunc = { box, width, height, _ in
    guard let child = child(of: box) else { return }
    let alignment = align(of: box)
    let w = childWidth(child, width, fill: alignment == GTK_ALIGN_FILL)
    let rtl = gtk_widget_get_direction(box) == GTK_TEXT_DIR_RTL
    let x: Int32
    switch alignment {
    case GTK_ALIGN_CENTER: x = (width - w) / 2
    case GTK_ALIGN_END: x = rtl ? 0 : width - w
    default: x = rtl ? width - w : 0
    }
    var allocation = GtkAllocation(x: x, y: 0, width: w, height: height)
    gtk_widget_size_allocate(child, &allocation, -1)
}
