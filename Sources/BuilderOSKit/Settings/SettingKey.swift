/// Every key of the settings schema (`data/app.builderos.Desktop.gschema.xml`), by name. The store
/// reads and writes only through these, listeners name them, and `SettingsStoreTests` checks that
/// they and the schema list the same keys.
public enum SettingKey: String, CaseIterable, Sendable {
    case serverURL = "server-url"
    case deviceID = "device-id"
    case appearance
    case windowWidth = "window-width"
    case windowHeight = "window-height"
    case page
    case autoRefreshSeconds = "auto-refresh-seconds"
    case notifyReplies = "notify-replies"
    case notifyConnection = "notify-connection"
    case notifySleep = "notify-sleep"
    case wakeMAC = "wake-mac"
    case wakeBroadcast = "wake-broadcast"
    case previewHost = "preview-host"
    case terminalShellCommand = "terminal-shell-command"
    case terminalJarvisCommand = "terminal-jarvis-command"
    case terminalCodexCommand = "terminal-codex-command"
    case keepRunningInBackground = "keep-running-in-background"

    /// The command a terminal profile types after connecting.
    public static func terminalCommand(_ profile: TerminalProfile) -> SettingKey {
        switch profile {
        case .shell: return .terminalShellCommand
        case .jarvis: return .terminalJarvisCommand
        case .codex: return .terminalCodexCommand
        }
    }
}
