import BuilderOSKit
import CGtk
import GtkKit

/// The Preview card of the preferences: the host the Preview page opens dev servers on, for a
/// server reached through a tunnel. Checked as typed; saved when valid (empty follows the server).
@MainActor
enum PreviewHostRow {
    static func card(settingsStore: SettingsStore, server: ServerAddress) -> Widget {
        let problem = UI.label("", classes: [Style.label, Style.errorText])
        gtk_widget_set_name(problem, "preview-host-problem")
        UI.setVisible(problem, false)
        let entryRef = WidgetRef()
        let entry = UI.entry(
            placeholder: L("Same as the server (e.g. 100.64.0.5)"), classes: [Style.entry],
            onChange: { text in
                guard let entry = entryRef.widget else { return }
                do throws(PreviewHost.Problem) {
                    let host = try PreviewHost.parseSetting(text)
                    UI.setVisible(problem, false)
                    UI.setClass(entry, "error", false)
                    try? settingsStore.updateServer(at: server) { $0.previewHost = host }
                } catch {
                    UI.setText(problem, error.message)
                    UI.setVisible(problem, true)
                    UI.setClass(entry, "error", true)
                }
            })
        entryRef.widget = entry
        gtk_widget_set_name(entry, "preview-host-entry")
        Accessibility.setLabel(entry, L("Preview host"))
        UI.setText(ofEditable: entry, settingsStore.load().server(at: server)?.previewHost ?? "")
        return UI.vbox(
            spacing: Style.gapSmall, classes: [Style.card],
            [
                UI.label(L("Preview"), classes: [Style.headline]),
                UI.label(
                    L(
                        "The Preview page opens dev servers on the server machine directly. When BuilderOS reaches the server through a tunnel, enter the machine’s address on your VPN (such as its Tailscale address) or on this network."
                    ),
                    classes: [Style.label, Style.dim]),
                InfoGrid.make([(L("Preview host"), entry)]),
                problem,
            ])
    }
}
