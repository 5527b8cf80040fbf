import CGtk
import GtkKit

/// Two columns of facts: a dim name and its value ("Server  https://…").
@MainActor
enum InfoGrid {
    static func make(_ rows: [(String, Widget)]) -> Widget {
        let widget = gtk_grid_new()!
        let grid = gtkCast(widget, to: GtkGrid.self)
        gtk_grid_set_row_spacing(grid, UInt32(Style.gapSmall))
        gtk_grid_set_column_spacing(grid, UInt32(Style.gap))
        for (index, (title, value)) in rows.enumerated() {
            gtk_grid_attach(grid, UI.label(title, classes: [Style.label, Style.dim]), 0, Int32(index), 1, 1)
            gtk_grid_attach(grid, value, 1, Int32(index), 1, 1)
        }
        return widget
    }
}
