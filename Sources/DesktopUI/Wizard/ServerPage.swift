import BuilderOSKit
import CGtk
import GtkKit

/// Step 2: the server address, validated as it is typed, with examples and the plain-http warning.
@MainActor
final class ServerPage: WizardPage {
    let root: Widget
    let focusTarget: Widget
    private let entry: Widget
    private let feedback: Widget
    private let warning: Widget
    private let warningText: Widget

    init(onChange: @escaping @MainActor (String) -> Void, onEnter: @escaping @MainActor () -> Void) {
        entry = UI.entry(
            placeholder: "https://builderos.example.com", classes: [Style.entry, Style.mono],
            onChange: onChange, onActivate: onEnter)
        gtk_widget_set_name(entry, "server-entry")
        focusTarget = entry
        let fieldLabel = UI.label(L("Server address"), classes: [Style.label])
        gtk_label_set_mnemonic_widget(OpaquePointer(fieldLabel), entry)
        // After the relation: the name is this text alone, not the label's text again.
        Accessibility.setLabel(entry, L("Server address"))

        feedback = UI.label("", classes: [Style.label])
        gtk_widget_set_name(feedback, "server-feedback")
        Accessibility.setDescription(entry, L("The address is checked as you type."))

        warningText = UI.label("", classes: [Style.label])
        warning = UI.vbox(
            spacing: Style.gapSmall, classes: [Style.notice],
            [
                UI.label(L("Unencrypted connection"), classes: [Style.headline, Style.warningText]), warningText,
            ])

        let examples = UI.vbox(
            spacing: Style.gapSmall, classes: [Style.card],
            [
                UI.label(L("Examples"), classes: [Style.headline]),
                Self.example(L("A tunnel URL"), "https://my-builderos.trycloudflare.com"),
                Self.example(L("An address on your VPN"), "http://100.101.102.103:8080"),
                UI.label(L("BuilderOS prints its address when it starts on your server."), classes: [Style.label, Style.dim]),
            ])

        root = UI.vbox(
            spacing: Style.gapLarge,
            [
                PageHeading.make(
                    title: L("Where is your server?"),
                    body: L("Enter the address of the computer that runs BuilderOS: its tunnel URL, or its address on your VPN or home network.")),
                UI.vbox(spacing: Style.gapSmall, [fieldLabel, entry, feedback]),
                warning,
                examples,
            ])
    }

    private static func example(_ title: String, _ address: String) -> Widget {
        let value = UI.label(address, classes: [Style.code], selectable: true)
        let row = UI.vbox(spacing: Style.gapHairline, [UI.label(title, classes: [Style.label, Style.dim]), value])
        return row
    }

    func render(_ flow: SetupFlow) {
        if UI.text(of: entry) != flow.serverText { UI.setText(ofEditable: entry, flow.serverText) }
        switch flow.serverValidation {
        case .success(let address):
            let duplicate = flow.duplicate.map { BuilderOSError.serverAlreadyAdded(name: $0.name).userMessage }
            UI.setText(feedback, duplicate ?? L("BuilderOS will connect to %@", address.displayURL))
            UI.setClass(feedback, Style.dim, duplicate == nil)
            UI.setClass(feedback, Style.errorText, duplicate != nil)
            UI.setClass(entry, "error", duplicate != nil)
            if let text = address.transportWarning {
                UI.setText(warningText, text)
                UI.setVisible(warning, true)
            } else {
                UI.setVisible(warning, false)
            }
        case .failure(let problem):
            // An empty field is not an error yet: it just says what to do.
            let empty = flow.serverText.trimmingCharacters(in: .whitespaces).isEmpty
            UI.setText(feedback, problem.message)
            UI.setClass(feedback, Style.dim, empty)
            UI.setClass(feedback, Style.errorText, !empty)
            UI.setClass(entry, "error", !empty)
            UI.setVisible(warning, false)
        }
    }
}
