import BuilderOSKit
import CGtk
import GtkKit

/// A table: a grid of cells that do not wrap, in a scrolled window (wide tables scroll sideways
/// instead of widening the bubble; a scrolled window would measure wrapped cells at one word per
/// line). While it streams, a cell whose text changed takes it in place and new rows are added to
/// the grid: rows already shown are never made again. (Made anew at each change, a growing table
/// was the longest frame of the streaming benchmark: its grid, labels and their styles, 10–19 ms.)
@MainActor
final class TableBlockView: BlockView {
    let widget: Widget
    private let grid: Widget
    /// The shown cells' labels and markup, row by row; the header is row 0.
    private var cells: [[Widget]] = []
    private var markups: [[String]] = []
    private var block: MarkdownBlock?

    init() {
        grid = gtk_grid_new()!
        let g = gtkCast(grid, to: GtkGrid.self)
        gtk_grid_set_row_spacing(g, UInt32(Style.gapTiny))
        gtk_grid_set_column_spacing(g, UInt32(Style.gap))
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(widget), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(OpaquePointer(widget), 1)
        gtk_scrolled_window_set_propagate_natural_width(OpaquePointer(widget), 1)
        gtk_scrolled_window_set_child(OpaquePointer(widget), grid)
    }

    /// Takes `block` in place when it is a table of the same columns (another column count is
    /// another table: the caller makes a new view).
    func update(_ block: MarkdownBlock) -> Bool {
        guard block != self.block else { return true }
        guard case .table(let header, let rows) = block else { return false }
        if let first = markups.first, first.count != header.count { return false }
        self.block = block
        let next = [header.map { "<b>" + PangoMarkup.render($0) + "</b>" }] + rows.map { $0.map { PangoMarkup.render($0) } }
        let g = gtkCast(grid, to: GtkGrid.self)
        for (r, row) in next.enumerated() {
            if r == cells.count { cells.append([]); markups.append([]) }
            for (column, markup) in row.enumerated() {
                if column < cells[r].count {
                    if markups[r][column] != markup { gtk_label_set_markup(OpaquePointer(cells[r][column]), markup) }
                } else {
                    let label = MarkdownWidgets.text(markup, wrap: false)
                    gtk_grid_attach(g, label, Int32(column), Int32(r), 1, 1)
                    cells[r].append(label)
                }
            }
            while cells[r].count > row.count { gtk_grid_remove(g, cells[r].removeLast()) }
            markups[r] = row
        }
        while cells.count > next.count {
            cells.removeLast().forEach { gtk_grid_remove(g, $0) }
            markups.removeLast()
        }
        return true
    }
}
