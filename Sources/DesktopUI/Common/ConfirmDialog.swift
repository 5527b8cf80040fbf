import BuilderOSKit
import CGtk
import GtkKit

/// A modal question with a safe choice and an action, styled from the tokens (GtkAlertDialog
/// is GTK 4.10+). Escape or closing the dialog picks the safe choice.
@MainActor
enum ConfirmDialog {
    static func ask(
        parent: Widget, title: String, body: String, cancel: String, confirm: String,
        destructive: Bool = false, name: String = "confirm-dialog",
        onConfirm: @escaping @MainActor () -> Void
    ) {
        let window = AppWindow.dialog(parent: parent, title: title, name: name)
        let gwindow = gtkCast(window, to: GtkWindow.self)

        let close = { gtk_window_destroy(gwindow) }
        let cancelButton = UI.button(cancel, classes: [Style.secondaryButton]) { close() }
        let confirmButton = UI.button(confirm, classes: [destructive ? Style.destructive : Style.suggested]) {
            close()
            onConfirm()
        }
        gtk_widget_set_name(confirmButton, "confirm-button")
        gtk_widget_set_name(cancelButton, "cancel-button")
        let buttons = UI.hbox(spacing: Style.gapSmall, [UI.spacer(vertical: false), cancelButton, confirmButton])
        let content = UI.vbox(
            spacing: Style.gap,
            [
                UI.label(title, classes: [Style.headline]),
                UI.label(body, classes: [Style.body]),
                buttons,
            ])
        AppWindow.present(dialog: window, content: content, width: Layout.px("dialog-width"), focus: cancelButton)
    }
}
