import BuilderOSKit
import CGtk
import GtkKit

/// A small modal that asks for one line of text (e.g. a conversation's new name).
@MainActor
enum TextPromptDialog {
    static func ask(
        parent: Widget, title: String, initial: String, confirm: String, name: String,
        onConfirm: @escaping @MainActor (String) -> Void
    ) {
        let window = AppWindow.dialog(parent: parent, title: title, name: name)
        let gwindow = gtkCast(window, to: GtkWindow.self)
        let close = { gtk_window_destroy(gwindow) }
        let entryRef = WidgetRef()
        let accept: @MainActor () -> Void = {
            guard let entry = entryRef.widget else { return }
            let text = UI.text(of: entry).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            close()
            onConfirm(text)
        }
        let entry = UI.entry(classes: [Style.entry], onActivate: { accept() })
        entryRef.widget = entry
        gtk_widget_set_name(entry, "prompt-entry")
        Accessibility.setLabel(entry, title)
        UI.setText(ofEditable: entry, initial)
        let cancel = UI.button(L("_Cancel"), classes: [Style.secondaryButton]) { close() }
        let ok = UI.button(confirm, classes: [Style.suggested]) { accept() }
        gtk_widget_set_name(ok, "confirm-button")
        let content = UI.vbox(
            spacing: Style.gap,
            [
                UI.label(title, classes: [Style.headline]), entry,
                UI.hbox(spacing: Style.gapSmall, [UI.spacer(vertical: false), cancel, ok]),
            ])
        AppWindow.present(dialog: window, content: content, width: Layout.px("prompt-width"), focus: entry)
    }
}
