import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Replace Key…: a new API key for the server the window shows. It is tested with the server first (over the chat
/// socket, as the setup does); only a key that passes replaces the old one, in one step (`Account.signIn`). A refused
/// key changes nothing and says so; the dialog stays open with the key, to correct it.
@MainActor
final class ReplaceKeyDialog {
    private let window: Widget
    private let entry: Widget
    private let feedback: Widget
    private let replace: Widget
    private var test: Task<Void, Never>?

    static func present(
        parent: Widget, server: ServerAddress, name: String, account: Account, onReplaced: @escaping @MainActor (String) -> Void
    ) {
        _ = ReplaceKeyDialog(parent: parent, server: server, name: name, account: account, onReplaced: onReplaced)
    }

    private init(parent: Widget, server: ServerAddress, name: String, account: Account, onReplaced: @escaping @MainActor (String) -> Void) {
        let title = L("Replace the Key of “%@”", name)
        window = AppWindow.dialog(parent: parent, title: title, name: "replace-key")
        let box = WeakBox<ReplaceKeyDialog>()
        entry = UI.entry(
            placeholder: L("Paste the new API key"), classes: [Style.entry, Style.mono], password: true,
            onChange: { _ in box.value?.showProblem(nil) }, onActivate: { box.value?.check(server: server, account: account, then: onReplaced) })
        gtk_widget_set_name(entry, "new-key-entry")
        Accessibility.setLabel(entry, L("New API key"))
        feedback = UI.label("", classes: [Style.label, Style.errorText])
        gtk_widget_set_name(feedback, "replace-key-feedback")
        UI.setVisible(feedback, false)
        let cancel = UI.button(L("_Cancel"), classes: [Style.secondaryButton]) { box.value?.close() }
        replace = UI.button(L("_Replace Key"), classes: [Style.suggested]) {
            box.value?.check(server: server, account: account, then: onReplaced)
        }
        gtk_widget_set_name(replace, "confirm-button")
        let content = UI.vbox(
            spacing: Style.gap,
            [
                UI.label(title, classes: [Style.headline]),
                UI.label(
                    L("The new key is tested with the server first. The old key stays in your keyring until the new one passes."),
                    classes: [Style.body]),
                entry, feedback,
                UI.hbox(spacing: Style.gapSmall, [UI.spacer(vertical: false), cancel, replace]),
            ])
        box.value = self
        Lifetime.tie(self, to: window)
        Signals.connect(UnsafeMutableRawPointer(window), "destroy") { [unowned self] in test?.cancel() }
        AppWindow.present(dialog: window, content: content, width: Layout.px("dialog-width"), focus: entry)
    }

    private func close() { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }

    private func showProblem(_ text: String?) {
        UI.setClass(feedback, Style.errorText, true)
        UI.setText(feedback, text ?? "")
        UI.setVisible(feedback, text != nil)
        UI.setClass(entry, "error", text != nil)
    }

    private func check(server: ServerAddress, account: Account, then onReplaced: @escaping @MainActor (String) -> Void) {
        guard test == nil else { return }
        let key: String
        do throws(APIKeyProblem) { key = try APIKey.validated(UI.text(of: entry)) } catch { return showProblem(error.message) }
        UI.setSensitive(replace, false)
        UI.setSensitive(entry, false)
        UI.setText(feedback, L("Testing the new key with the server…"))
        UI.setClass(feedback, Style.errorText, false)
        UI.setVisible(feedback, true)
        test = Task { [weak self] in
            let network = account.settingsStore.load().server(at: server)?.network ?? ClientConfiguration()
            let report = await ConnectionTest(server: server, apiKey: key, configuration: network).run { _, _ in }
            var failure = report.firstFailure?.error
            if failure == nil {
                do throws(BuilderOSError) { try await account.signIn(server: server, key: key) } catch { failure = error }
            }
            guard let self, !Task.isCancelled else { return }
            test = nil
            UI.setSensitive(replace, true)
            UI.setSensitive(entry, true)
            if let failure {
                showProblem([failure.userMessage, L("Nothing was changed: the old key stays.")].joined(separator: " "))
                gtk_widget_grab_focus(entry)
                return
            }
            UI.setText(ofEditable: entry, "")
            close()
            onReplaced(key)
        }
    }
}
