import CGtk

@MainActor
public enum Clipboard {
    /// Puts text on the clipboard of the widget's display.
    public static func copy(_ text: String, from widget: UnsafeMutablePointer<GtkWidget>) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), text)
    }
}
