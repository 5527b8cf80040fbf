import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The desktop's file chooser (xdg-desktop-portal's when it runs, GTK's own otherwise):
/// GtkFileChooserNative, as GtkFileDialog is GTK 4.10+.
@MainActor
enum FileChooser {
    enum Purpose {
        case open
        case save(suggestedName: String)
        case folder
    }

    /// Asks for one file or folder; `done` gets its path (nothing happens when the user cancels).
    static func choose(
        _ purpose: Purpose, title: String, accept: String, parent: Widget?, done: @escaping @MainActor (String) -> Void
    ) {
        let action: GtkFileChooserAction
        switch purpose {
        case .open: action = GTK_FILE_CHOOSER_ACTION_OPEN
        case .save: action = GTK_FILE_CHOOSER_ACTION_SAVE
        case .folder: action = GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
        }
        let chooser = gtk_file_chooser_native_new(title, parent.map { gtkCast($0, to: GtkWindow.self) }, action, accept, L("_Cancel"))!
        if case .save(let name) = purpose { gtk_file_chooser_set_current_name(chooser, name) }
        Signals.connect(
            UnsafeMutableRawPointer(chooser), "response",
            withArgument: { _ in
                var path: String?
                if let file = gtk_file_chooser_get_file(chooser) {
                    if let text = g_file_get_path(file) {
                        path = String(cString: text)
                        g_free(text)
                    }
                    g_object_unref(UnsafeMutableRawPointer(file))
                }
                g_object_unref(UnsafeMutableRawPointer(chooser))
                if let path { done(path) }
            })
        gtk_native_dialog_show(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self))
    }
}
