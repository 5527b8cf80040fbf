import BuilderOSKit
import CGtk
import GtkKit

/// The Terminal card of the preferences: what a tab of each profile types after (re)connecting.
/// One line each; saved as typed (a line break cannot be typed into the entry, and control characters
/// are refused when the tab types it).
@MainActor
enum TerminalCommandsRow {
    static func card(settingsStore: SettingsStore, server: ServerAddress) -> Widget {
        let settings = settingsStore.load().server(at: server)
        var rows: [(String, Widget)] = []
        for profile in TerminalProfile.allCases {
            let entry = UI.entry(
                placeholder: profile == .shell ? L("Nothing (a plain shell)") : profile.defaultCommand,
                classes: [Style.entry],
                onChange: { text in
                    try? settingsStore.updateServer(at: server) { $0.terminalCommands[profile] = text.trimmingCharacters(in: .whitespaces) }
                })
            gtk_widget_set_name(entry, "terminal-command-\(profile.rawValue)")
            Accessibility.setLabel(entry, L("Command for %@ tabs", profile.title))
            UI.setText(ofEditable: entry, settings?.terminalCommands[profile] ?? profile.defaultCommand)
            rows.append((profile.title, entry))
        }
        return UI.vbox(
            spacing: Style.gapSmall, classes: [Style.card],
            [
                UI.label(L("Terminal"), classes: [Style.headline]),
                UI.label(
                    L("What a new terminal tab of each kind types on the server after it connects (and after a reconnect)."),
                    classes: [Style.label, Style.dim]),
                InfoGrid.make(rows),
            ])
    }
}
