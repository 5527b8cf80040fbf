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
        ask(
            parent: parent, title: title, body: body, option: nil, cancel: cancel, confirm: confirm, destructive: destructive, name: name
        ) { _ in onConfirm() }
    }

    /// The same with a check box (`option`, off by default) whose state the action gets.
    static func ask(
        parent: Widget, title: String, body: String, option: String?, cancel: String, confirm: String,
        destructive: Bool = false, name: String = "confirm-dialog",
        onConfirm: @escaping @MainActor (Bool) -> Void
    ) {
        let window = AppWindow.dialog(parent: parent, title: title, name: name)
        let gwindow = gtkCast(window, to: GtkWindow.self)

        let close = { gtk_window_destroy(gwindow) }
        let check = option.map { text -> Widget in
            let check = gtk_check_button_new_with_mnemonic(text)!
            Accessibility.nameFromLabel(check, text)
            gtk_widget_set_name(check, "confirm-option")
            return check
        }
        let cancelButton = UI.button(cancel, classes: [Style.secondaryButton]) { close() }
        let confirmButton = UI.button(confirm, classes: [destructive ? Style.destructive : Style.suggested]) {
            let ticked = check.map { gtk_check_button_get_active(gtkCast($0, to: GtkCheckButton.self)) != 0 } ?? false
            close()
            onConfirm(ticked)
        }
        gtk_widget_set_name(confirmButton, "confirm-button")
        gtk_widget_set_name(cancelButton, "cancel-button")
        let buttons = UI.hbox(spacing: Style.gapSmall, [UI.spacer(vertical: false), cancelButton, confirmButton])
        let content = UI.vbox(
            spacing: Style.gap,
            [
                UI.label(title, classes: [Style.headline]),
                UI.label(body, classes: [Style.body]),
            ] + (check.map { [$0] } ?? []) + [buttons])
        AppWindow.present(dialog: window, content: content, width: Layout.px("dialog-width"), focus: cancelButton)
    }
}
