import CGtk

/// A box that shows one of two forms of the same thing: the wide one when it is given the wide
/// one's natural width, the narrow one otherwise (a page's name or its icon; a state's dot and words,
/// or the dot). Its minimum is the narrow form's, its natural width the wide form's, so a parent that
/// gives it anything between shows the narrow form (`HeaderLayout`'s `.compact` gives the minimum).
///
/// The form not shown is kept out of sight with `gtk_widget_set_child_visible`, which, unlike
/// hiding it, does not ask for a new layout: the choice is made while allocating.
@MainActor
public enum WideOrNarrow {
    public static func box(wide: Widget, narrow: Widget) -> Widget {
        let box = UI.hbox()
        UI.append(box, wide)
        UI.append(box, narrow)
        gtk_widget_set_layout_manager(box, gtk_custom_layout_new({ _ in GTK_SIZE_REQUEST_CONSTANT_SIZE }, measure, allocate))
        return box
    }

    /// Whether the box shows its wide form (as of its last allocation).
    public static func isWide(_ box: Widget) -> Bool {
        gtk_widget_get_first_child(box).map { gtk_widget_get_child_visible($0) != 0 } ?? false
    }
}

private func forms(of box: UnsafeMutablePointer<GtkWidget>?) -> (wide: UnsafeMutablePointer<GtkWidget>, narrow: UnsafeMutablePointer<GtkWidget>)? {
    guard let wide = gtk_widget_get_first_child(box), let narrow = gtk_widget_get_next_sibling(wide) else { return nil }
    return (wide, narrow)
}

private func size(_ child: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation) -> (Int32, Int32) {
    var minimum: Int32 = 0, natural: Int32 = 0
    gtk_widget_measure(child, orientation, -1, &minimum, &natural, nil, nil)
    return (minimum, natural)
}

private let measure: GtkCustomMeasureFunc = { box, orientation, _, minimum, natural, _, _ in
    guard let (wide, narrow) = forms(of: box) else { return }
    let (wideMinimum, wideNatural) = size(wide, orientation)
    let (narrowMinimum, narrowNatural) = size(narrow, orientation)
    if orientation == GTK_ORIENTATION_HORIZONTAL {
        minimum?.pointee = narrowMinimum
        natural?.pointee = max(wideNatural, narrowNatural)
    } else {
        minimum?.pointee = max(wideMinimum, narrowMinimum)
        natural?.pointee = max(wideNatural, narrowNatural)
    }
}

private let allocate: GtkCustomAllocateFunc = { box, width, height, _ in
    guard let (wide, narrow) = forms(of: box) else { return }
    let (wideMinimum, wideNatural) = size(wide, GTK_ORIENTATION_HORIZONTAL)
    let showWide = width >= max(wideMinimum, wideNatural)
    gtk_widget_set_child_visible(wide, showWide ? 1 : 0)
    gtk_widget_set_child_visible(narrow, showWide ? 0 : 1)
    var allocation = GtkAllocation(x: 0, y: 0, width: width, height: height)
    gtk_widget_size_allocate(showWide ? wide : narrow, &allocation, -1)
}
