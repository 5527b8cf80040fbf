import BuilderOSKit
import CGtk
import GtkKit

/// A modal message with one button: what an action did, or what could not be done and why
/// (`BuilderOSError`'s sentence and fix-it). Escape or the button closes it.
@MainActor
enum NoticeDialog {
    static func show(parent: Widget, title: String, body: String, name: String = "notice-dialog") {
        let window = AppWindow.dialog(parent: parent, title: title, name: name)
        let gwindow = gtkCast(window, to: GtkWindow.self)
        let close = UI.button(L("Close"), classes: [Style.suggested]) { gtk_window_destroy(gwindow) }
        gtk_widget_set_name(close, "close-button")
        let content = UI.vbox(
            spacing: Style.gap,
            [
                UI.label(title, classes: [Style.headline]),
                UI.label(body, classes: [Style.body]),
                UI.hbox(spacing: Style.gapSmall, [UI.spacer(vertical: false), close]),
            ])
        AppWindow.present(dialog: window, content: content, width: Layout.px("dialog-width"), focus: close)
    }

    /// `title` names what failed, in a few words: it is also the window's title, which a sentence would
    /// stretch the dialog to on a desktop that shows it (Wayland's title bar). The reason and its fix
    /// are the body.
    static func show(parent: Widget, title: String, failure: BuilderOSError, name: String = "notice-dialog") {
        show(parent: parent, title: title, body: failure.sentenceWithFix, name: name)
    }
}
