import BuilderOSKit
import CGtk
import GtkKit

/// Step 5: what was set up, and the way into the app.
@MainActor
final class DonePage: WizardPage {
    let root: Widget
    let focusTarget: Widget
    private let server: Widget
    private let version: Widget
    private let latency: Widget
    private let note: Widget

    init(onOpen: @escaping @MainActor () -> Void) {
        let open = UI.button(L("_Open BuilderOS"), classes: [Style.suggested], action: onOpen)
        gtk_widget_set_name(open, "open-builderos")
        UI.size(open, width: Layout.px("wide-button"))
        UI.align(open, h: GTK_ALIGN_CENTER)
        focusTarget = open
        let check = UI.label("✓", classes: [Style.hero], wrap: false, xalign: 0.5)
        let badge = UI.vbox(classes: ["bos-step-dot-done", "bos-done-badge"], [check])
        UI.size(badge, width: Layout.px("done-badge"), height: Layout.px("done-badge"))
        UI.align(badge, h: GTK_ALIGN_CENTER)
        UI.align(check, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(check, 1)
        Accessibility.setLabel(badge, L("Setup complete"))

        server = UI.label("", classes: [Style.code])
        version = UI.label("", classes: [Style.body])
        latency = UI.label("", classes: [Style.body])
        note = UI.label("", classes: [Style.label, Style.warningText])
        let grid = InfoGrid.make([(L("Server"), server), (L("Version"), version), (L("Latency"), latency)])
        let card = UI.vbox(spacing: Style.gap, classes: [Style.card], [grid, note])

        let title = UI.label(L("You're all set!"), classes: [Style.display], xalign: 0.5)
        let body = UI.label(
            L("BuilderOS Desktop is connected to your server. Your API key is in your keyring."),
            classes: [Style.body, Style.dim], xalign: 0.5)
        gtk_label_set_justify(OpaquePointer(body), GTK_JUSTIFY_CENTER)
        root = UI.vbox(spacing: Style.gapLarge, [badge, title, body, card, open])
        UI.align(root, v: GTK_ALIGN_CENTER)
    }

    func render(_ flow: SetupFlow) {
        UI.setText(server, flow.server?.displayURL ?? "")
        UI.setText(version, flow.report?.version ?? L("unknown"))
        UI.setText(latency, flow.report?.latencyMilliseconds.map { L("%d ms", String(Int($0.rounded()))) } ?? "—")
        // Whatever the test noted about optional features, in its own words.
        if case .passedWithNote(let text) = flow.checks[.connection(.systemFeatures)] {
            UI.setText(note, text)
            UI.setVisible(note, true)
        } else {
            UI.setVisible(note, false)
        }
    }
}
