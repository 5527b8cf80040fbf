import CGtk

/// Two children side by side: a leading one (a list item's marker, a quote's bar) at its natural
/// width, and the content taking the rest of the width (right-to-left aware).
///
/// Why not a horizontal `GtkBox`: GtkBoxLayout shares width out by measuring its children at many
/// widths, and around wrapped text each of those is a Pango layout. A streaming reply's open list
/// item paid that in every frame. This layout measures the content once, at the width it will get.
@MainActor
public enum LeadingLayout {
    public static func box(spacing: Int32, leading: Widget, content: Widget) -> Widget {
        let box = UI.vbox()
        g_object_set_data(UnsafeMutablePointer(OpaquePointer(box)), spacingKey, UnsafeMutableRawPointer(bitPattern: Int(spacing) + 1))
        gtk_widget_set_layout_manager(box, gtk_custom_layout_new({ _ in GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }, measure, allocate))
        UI.append(box, leading)
        UI.append(box, content)
        return box
    }

    /// Puts `content` where the box's content was (the old one is unparented: hold a reference to keep it).
    public static func setContent(_ box: Widget, _ content: Widget) {
        if let leading = gtk_widget_get_first_child(box), let old = gtk_widget_get_next_sibling(leading) { gtk_widget_unparent(old) }
        UI.append(box, content)
    }
}

private let spacingKey = "bos-leading-spacing"

private func parts(of box: UnsafeMutablePointer<GtkWidget>) -> (
    leading: UnsafeMutablePointer<GtkWidget>, content: UnsafeMutablePointer<GtkWidget>, spacing: Int32
)? {
    guard let leading = gtk_widget_get_first_child(box), let content = gtk_widget_get_next_sibling(leading) else { return nil }
    let stored = Int(bitPattern: g_object_get_data(UnsafeMutablePointer(OpaquePointer(box)), spacingKey))
    return (leading, content, Int32(max(stored - 1, 0)))
}

/// The leading child's width in `available`: its natural width, at most `available`.
private func leadingWidth(_ leading: UnsafeMutablePointer<GtkWidget>, _ available: Int32) -> Int32 {
    guard gtk_widget_should_layout(leading) != 0 else { return 0 }
    var natural: Int32 = 0
    gtk_widget_measure(leading, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
    return min(natural, max(available, 0))
}

private let measure: GtkCustomMeasureFunc = { box, orientation, forSize, minimum, natural, _, _ in
    guard let box, let parts = parts(of: box) else { return }
    let (leading, content, spacing) = parts
    var leadMin: Int32 = 0, leadNat: Int32 = 0, contentMin: Int32 = 0, contentNat: Int32 = 0
    if orientation == GTK_ORIENTATION_HORIZONTAL {
        gtk_widget_measure(leading, orientation, -1, &leadMin, &leadNat, nil, nil)
        gtk_widget_measure(content, orientation, -1, &contentMin, &contentNat, nil, nil)
        minimum?.pointee = leadMin + spacing + contentMin
        natural?.pointee = leadNat + spacing + contentNat
        return
    }
    let lead = forSize < 0 ? Int32(-1) : leadingWidth(leading, forSize)
    let rest = forSize < 0 ? Int32(-1) : max(forSize - lead - spacing, 0)
    gtk_widget_measure(leading, orientation, lead, &leadMin, &leadNat, nil, nil)
    gtk_widget_measure(content, orientation, rest, &contentMin, &contentNat, nil, nil)
    minimum?.pointee = max(leadMin, contentMin)
    natural?.pointee = max(leadNat, contentNat)
}

private let allocate: GtkCustomAllocateFunc = { box, width, height, _ in
    guard let box, let parts = parts(of: box) else { return }
    let (leading, content, spacing) = parts
    let lead = leadingWidth(leading, width)
    let rest = max(width - lead - spacing, 0)
    let rtl = gtk_widget_get_direction(box) == GTK_TEXT_DIR_RTL
    var leadAllocation = GtkAllocation(x: rtl ? width - lead : 0, y: 0, width: lead, height: height)
    var contentAllocation = GtkAllocation(x: rtl ? 0 : lead + spacing, y: 0, width: rest, height: height)
    gtk_widget_size_allocate(leading, &leadAllocation, -1)
    gtk_widget_size_allocate(content, &contentAllocation, -1)
}
