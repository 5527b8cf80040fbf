import CGtk
import GtkKit

/// A top-level window of the app: titled, sized, named (for tests and tools) and styled.
@MainActor
enum AppWindow {
    static func make(
        _ application: UnsafeMutablePointer<GtkApplication>, title: String, name: String,
        width: Int32, height: Int32
    ) -> Widget {
        let window = gtk_application_window_new(application)!
        let gwindow = gtkCast(window, to: GtkWindow.self)
        gtk_window_set_title(gwindow, title)
        gtk_window_set_default_size(gwindow, width, height)
        gtk_widget_set_name(window, name)
        UI.addClasses(window, [Style.app])
        gtk_window_set_titlebar(gwindow, gtk_header_bar_new())
        return window
    }

    /// A small modal dialog window over `parent`, titled, named and styled.
    static func dialog(parent: Widget?, title: String, name: String, resizable: Bool = false) -> Widget {
        let window = gtk_window_new()!
        let gwindow = gtkCast(window, to: GtkWindow.self)
        if let parent { gtk_window_set_transient_for(gwindow, gtkCast(parent, to: GtkWindow.self)) }
        gtk_window_set_modal(gwindow, 1)
        gtk_window_set_resizable(gwindow, resizable ? 1 : 0)
        gtk_window_set_title(gwindow, title)
        gtk_widget_set_name(window, name)
        UI.addClasses(window, [Style.app])
        return window
    }

    /// Shows a small dialog's content with the dialog margins at a fixed width; Escape closes it,
    /// and `focus` starts with the keyboard (the safe choice, or the field to fill).
    static func present(dialog window: Widget, content: Widget, width: Int32, focus: Widget) {
        let gwindow = gtkCast(window, to: GtkWindow.self)
        UI.margins(content, top: Style.gapLarge, bottom: Style.gapLarge, start: Style.gapLarge, end: Style.gapLarge)
        UI.size(content, width: width)
        gtk_window_set_child(gwindow, content)
        Signals.onEscape(window) { gtk_window_destroy(gwindow) }
        // Before presenting: a window shown without a focus gives it to its first focusable widget, and a
        // selectable label selects its whole text as it takes it.
        gtk_widget_grab_focus(focus)
        gtk_window_present(gwindow)
    }

    static func header(of window: Widget) -> OpaquePointer {
        OpaquePointer(gtk_window_get_titlebar(gtkCast(window, to: GtkWindow.self))!)
    }
}
