import CGtk

/// A header's content across its whole width (right-to-left aware): a leading row, a centre child
/// centred in the box while the rows leave it room (pushed aside when they do not), and a trailing row.
/// When the natural widths do not fit, it yields in the order given, until they do:
/// `.hide` gives a child up, `.compact` gives a child its minimum width (the compact form of a
/// `WideOrNarrow` box, or of a row of them), `.shrink` takes only what is missing from a child, down to
/// its minimum (a label ellipsizes); then it gives back what the last step left room for. Its minimum
/// width is what every step leaves.
///
/// Why not GtkHeaderBar's start, title and end: its centre layout gives the start at most half of
/// what the title leaves, whatever the end needs, so it cut the start's labels with space left empty
/// at the end, and it has no way to give a label up. The header bar around this box keeps its role
/// (the window's handle, the header's style); the window's controls go in the rows.
@MainActor
public enum HeaderLayout {
    public enum Step {
        case hide(Widget)
        case compact(Widget)
        case shrink(Widget)
    }

    public static func box(leading: [Widget], center: Widget, trailing: [Widget], steps: [Step], spacing: Int32) -> Widget {
        let box = UI.hbox()
        gtk_widget_set_hexpand(box, 1)
        (leading + [center] + trailing).forEach { UI.append(box, $0) }
        let parts = HeaderParts(leading: leading, center: center, trailing: trailing, steps: steps, spacing: spacing)
        g_object_set_data_full(
            UnsafeMutablePointer(OpaquePointer(box)), partsKey, Unmanaged.passRetained(parts).toOpaque(),
            { Unmanaged<HeaderParts>.fromOpaque($0!).release() })
        gtk_widget_set_layout_manager(box, gtk_custom_layout_new({ _ in GTK_SIZE_REQUEST_CONSTANT_SIZE }, measure, allocate))
        return box
    }
}

private let partsKey = "bos-header-parts"

private final class HeaderParts {
    let leading: [Widget], center: Widget, trailing: [Widget], steps: [HeaderLayout.Step], spacing: Int32
    init(leading: [Widget], center: Widget, trailing: [Widget], steps: [HeaderLayout.Step], spacing: Int32) {
        (self.leading, self.center, self.trailing, self.steps, self.spacing) = (leading, center, trailing, steps, spacing)
    }
}

private func parts(of box: UnsafeMutablePointer<GtkWidget>?) -> HeaderParts? {
    g_object_get_data(UnsafeMutablePointer(OpaquePointer(box)), partsKey).map { Unmanaged<HeaderParts>.fromOpaque($0).takeUnretainedValue() }
}

/// Each child's width once the steps that a width needs have been taken.
private struct Fit {
    var widths: [Widget: Int32] = [:]
    var hidden: Set<Widget> = []
    let parts: HeaderParts

    /// Every child at its natural width, nothing given up.
    init(_ parts: HeaderParts) {
        self.parts = parts
        for child in parts.leading + [parts.center] + parts.trailing where gtk_widget_should_layout(child) != 0 {
            widths[child] = size(child).natural
        }
    }

    func size(_ child: Widget) -> (minimum: Int32, natural: Int32) {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return (minimum, max(minimum, natural))
    }

    func row(_ children: [Widget]) -> Int32 {
        let shown = children.compactMap { hidden.contains($0) ? nil : widths[$0] }
        return shown.reduce(0, +) + parts.spacing * Int32(max(shown.count - 1, 0))
    }

    var leadingWidth: Int32 { row(parts.leading) }
    var trailingWidth: Int32 { row(parts.trailing) }
    var centerWidth: Int32 { widths[parts.center] ?? 0 }

    var total: Int32 {
        let gaps = (leadingWidth > 0 ? parts.spacing : 0) + (trailingWidth > 0 ? parts.spacing : 0)
        return leadingWidth + centerWidth + trailingWidth + gaps
    }

    /// Takes steps, in order, while the children are wider than `width` (every step for the minimum); then
    /// gives back, the latest first, what the last step left room for (the pages as icons leave room for the
    /// state's words).
    mutating func yield(to width: Int32) {
        var taken: [HeaderLayout.Step] = []
        for step in parts.steps where total > width {
            take(step, width)
            taken.append(step)
        }
        for step in taken.dropLast().reversed() {
            var trial = self
            trial.giveBack(step)
            if trial.total <= width { self = trial }
        }
    }

    private mutating func take(_ step: HeaderLayout.Step, _ width: Int32) {
        switch step {
        case .hide(let child): hidden.insert(child)
        case .compact(let child): if widths[child] != nil { widths[child] = size(child).minimum }
        case .shrink(let child):
            if let current = widths[child] { widths[child] = max(size(child).minimum, current - (total - width)) }
        }
    }

    private mutating func giveBack(_ step: HeaderLayout.Step) {
        switch step {
        case .hide(let child): hidden.remove(child)
        case .compact(let child), .shrink(let child): if widths[child] != nil { widths[child] = size(child).natural }
        }
    }
}

private let measure: GtkCustomMeasureFunc = { box, orientation, _, minimum, natural, _, _ in
    guard let parts = parts(of: box) else { return }
    if orientation == GTK_ORIENTATION_VERTICAL {
        var most: (Int32, Int32) = (0, 0)
        for child in parts.leading + [parts.center] + parts.trailing where gtk_widget_should_layout(child) != 0 {
            var childMinimum: Int32 = 0, childNatural: Int32 = 0
            gtk_widget_measure(child, orientation, -1, &childMinimum, &childNatural, nil, nil)
            most = (max(most.0, childMinimum), max(most.1, childNatural))
        }
        minimum?.pointee = most.0
        natural?.pointee = most.1
        return
    }
    let full = Fit(parts)
    var least = full
    least.yield(to: 0)
    minimum?.pointee = least.total
    // Wide enough for the centre child to sit in the middle.
    natural?.pointee = full.centerWidth + 2 * (max(full.leadingWidth, full.trailingWidth) + parts.spacing)
}

private let allocate: GtkCustomAllocateFunc = { box, width, height, _ in
    guard let box, let parts = parts(of: box) else { return }
    var fit = Fit(parts)
    fit.yield(to: width)
    let rtl = gtk_widget_get_direction(box) == GTK_TEXT_DIR_RTL
    func place(_ child: Widget, at x: Int32) {
        guard let w = fit.widths[child] else { return }
        gtk_widget_set_child_visible(child, fit.hidden.contains(child) ? 0 : 1)
        guard !fit.hidden.contains(child) else { return }
        var allocation = GtkAllocation(x: rtl ? width - x - w : x, y: 0, width: w, height: height)
        gtk_widget_size_allocate(child, &allocation, -1)
    }
    var x: Int32 = 0
    for child in parts.leading {
        place(child, at: x)
        if let w = fit.widths[child], !fit.hidden.contains(child) { x += w + parts.spacing }
    }
    let leadingEnd = fit.leadingWidth > 0 ? fit.leadingWidth + parts.spacing : 0
    let trailingStart = width - fit.trailingWidth - (fit.trailingWidth > 0 ? parts.spacing : 0)
    let centered = (width - fit.centerWidth) / 2
    place(parts.center, at: max(leadingEnd, min(centered, trailingStart - fit.centerWidth)))
    x = width - fit.trailingWidth
    for child in parts.trailing {
        place(child, at: x)
        if let w = fit.widths[child], !fit.hidden.contains(child) { x += w + parts.spacing }
    }
}
