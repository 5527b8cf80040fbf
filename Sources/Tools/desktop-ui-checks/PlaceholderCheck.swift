import CGtk
import GtkKit

/// An empty field's placeholder is all that says what the field is for, and GTK cuts one wider
/// than its field with an ellipsis. Text runs wider on Wayland, where GTK lays it out unhinted, and
/// in German and Spanish than the English on X11 it was sized by. So every screen worth a picture,
/// on each display and in each language, shows its placeholders whole.
extension Driver {
    func placeholdersWhole(_ window: Widget, _ screen: String) {
        let cut = WidgetTree.all(window).filter { widget in
            // GtkText's placeholder: a label with the CSS name "placeholder", ellipsized at its end.
            String(cString: gtk_widget_get_css_name(widget)) == "placeholder" && gtk_widget_get_mapped(widget) != 0
                && SearchScenario.isLabel(widget) && inView(widget, of: window)
                && pango_layout_is_ellipsized(gtk_label_get_layout(OpaquePointer(widget))) != 0
        }
        expect(
            cut.isEmpty, "every placeholder on \(screen) is shown whole",
            cut.map { String(cString: gtk_label_get_text(OpaquePointer($0))) }.joined(separator: ", "))
    }

    /// Whether any of `widget` is inside every widget around it: a scrolled window's content
    /// out of its view is mapped, not shown.
    private func inView(_ widget: Widget, of window: Widget) -> Bool {
        var around = gtk_widget_get_parent(widget)
        while let ancestor = around {
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(widget, ancestor, &bounds) != 0 else { return false }
            let width = Float(gtk_widget_get_width(ancestor)), height = Float(gtk_widget_get_height(ancestor))
            let x = bounds.origin.x, y = bounds.origin.y
            if x >= width || y >= height || x + bounds.size.width <= 0 || y + bounds.size.height <= 0 { return false }
            if ancestor == window { return true }
            around = gtk_widget_get_parent(ancestor)
        }
        return true
    }
}
