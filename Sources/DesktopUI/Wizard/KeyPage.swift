import BuilderOSKit
import CGtk
import GtkKit

/// Step 3: the API key, hidden by default with a reveal toggle, and where to find it.
@MainActor
final class KeyPage: WizardPage {
    let root: Widget
    let focusTarget: Widget
    private let entry: Widget
    private let reveal: Widget
    private let copied: Widget
    private let serverLabel: Widget
    private let feedback: Widget

    init(onChange: @escaping @MainActor (String) -> Void, onEnter: @escaping @MainActor () -> Void) {
        entry = UI.entry(
            placeholder: L("Paste your API key"), classes: [Style.entry, Style.mono], password: true,
            onChange: onChange, onActivate: onEnter)
        gtk_widget_set_name(entry, "key-entry")
        gtk_widget_set_hexpand(entry, 1)
        focusTarget = entry
        let fieldLabel = UI.label(L("API key"), classes: [Style.label])
        gtk_label_set_mnemonic_widget(OpaquePointer(fieldLabel), entry)
        // After the relation: the name is this text alone, not the label's text again.
        Accessibility.setLabel(entry, L("API key"))

        reveal = gtk_toggle_button_new()!
        gtk_button_set_icon_name(gtkCast(reveal, to: GtkButton.self), "view-reveal-symbolic")
        gtk_widget_set_name(reveal, "reveal-key")
        Tooltip.set(reveal, L("Show API key"))
        Accessibility.setLabel(reveal, L("Show API key"))
        UI.addClasses(reveal, [Style.secondaryButton, "bos-icon-button"])

        copied = UI.label("", classes: [Style.label, Style.dim])
        serverLabel = UI.label("", classes: [Style.label, Style.dim])
        feedback = UI.label("", classes: [Style.label, Style.errorText])
        gtk_widget_set_name(feedback, "key-feedback")
        UI.setVisible(feedback, false)
        let command = UI.label(ServerKeyHint.command, classes: [Style.command], wrap: false, selectable: true)
        gtk_widget_set_hexpand(command, 1)
        let copy = UI.button(L("_Copy"), classes: [Style.secondaryButton]) { [copied] in
            let clipboard = gdk_display_get_clipboard(gdk_display_get_default())
            gdk_clipboard_set_text(clipboard, ServerKeyHint.command)
            UI.setText(copied, L("Command copied."))
        }
        gtk_widget_set_name(copy, "copy-command")
        Accessibility.setLabel(copy, L("Copy the command"))

        let help = UI.vbox(
            spacing: Style.gapSmall, classes: [Style.card],
            [
                UI.label(L("Where to find your key"), classes: [Style.headline]),
                UI.label(
                    L("On the computer that runs BuilderOS, run this command in a terminal and copy what it prints:"),
                    classes: [Style.label]),
                UI.hbox(spacing: Style.gapSmall, [command, copy]),
                copied,
            ])
        root = UI.vbox(
            spacing: Style.gapLarge,
            [
                PageHeading.make(
                    title: L("Enter your API key"),
                    body: L("Your server only answers apps that know its API key. BuilderOS Desktop keeps it in your keyring, never in a file.")),
                UI.vbox(spacing: Style.gapSmall, [fieldLabel, UI.hbox(spacing: Style.gapSmall, [entry, reveal]), feedback, serverLabel]),
                help,
            ])

        Signals.connect(UnsafeMutableRawPointer(reveal), "toggled") { [entry, reveal] in
            let shown = gtk_toggle_button_get_active(gtkCast(reveal, to: GtkToggleButton.self)) != 0
            gtk_entry_set_visibility(gtkCast(entry, to: GtkEntry.self), shown ? 1 : 0)
            gtk_button_set_icon_name(gtkCast(reveal, to: GtkButton.self), shown ? "view-conceal-symbolic" : "view-reveal-symbolic")
            let name = shown ? L("Hide API key") : L("Show API key")
            Tooltip.set(reveal, name)
            Accessibility.setLabel(reveal, name)
        }
    }

    func render(_ flow: SetupFlow) {
        if UI.text(of: entry) != flow.keyText { UI.setText(ofEditable: entry, flow.keyText) }
        UI.setText(serverLabel, flow.server.map { L("For %@", $0.displayURL) } ?? "")
        // An empty field is not an error yet; anything else that cannot be a key says why.
        if case .failure(let problem) = flow.keyValidation, problem != .empty {
            UI.setText(feedback, problem.message)
            UI.setVisible(feedback, true)
            UI.setClass(entry, "error", true)
        } else {
            UI.setVisible(feedback, false)
            UI.setClass(entry, "error", false)
        }
    }
}
