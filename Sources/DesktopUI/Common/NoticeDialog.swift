import BuilderOSKit
import CGtk
import GtkKit

/// A modal message with one button: what an action did, or why it could not (`BuilderOSError`'s
/// sentence and fix-it). Escape or the button closes it.
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

    static func show(parent: Widget, failure: BuilderOSError, name: String = "notice-dialog") {
        show(parent: parent, title: failure.userMessage, body: failure.fixIt ?? "", name: name)
    }
}
