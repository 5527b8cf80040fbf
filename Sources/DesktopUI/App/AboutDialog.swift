import BuilderOSKit
import CGtk
import GtkKit

/// GTK's about dialog, filled in (gtk_show_about_dialog is variadic).
@MainActor
enum AboutDialog {
    static func present(parent: Widget?) {
        let dialog = gtk_about_dialog_new()!
        let about = OpaquePointer(dialog)
        gtk_about_dialog_set_program_name(about, "BuilderOS")
        gtk_about_dialog_set_version(about, BuilderOSKit.version)
        gtk_about_dialog_set_comments(about, L("The desktop companion for your BuilderOS server."))
        gtk_about_dialog_set_logo_icon_name(about, DesktopApplication.id)
        if let parent {
            gtk_window_set_transient_for(gtkCast(dialog, to: GtkWindow.self), gtkCast(parent, to: GtkWindow.self))
            gtk_window_set_modal(gtkCast(dialog, to: GtkWindow.self), 1)
        }
        gtk_window_present(gtkCast(dialog, to: GtkWindow.self))
    }
}
