/// Every key of the settings schema (`data/app.builderos.Desktop.gschema.xml`), by name. The store
/// reads and writes only through these, listeners name them, and `SettingsStoreTests` checks that
/// they and the schema list the same keys.
public enum SettingKey: String, CaseIterable, Sendable {
    case servers
    case activeServer = "active-server"
    case deviceID = "device-id"
    case appearance
    case windowWidth = "window-width"
    case windowHeight = "window-height"
    case page
    case autoRefreshSeconds = "auto-refresh-seconds"
    case notifyReplies = "notify-replies"
    case notifyConnection = "notify-connection"
    case notifySleep = "notify-sleep"
    case keepRunningInBackground = "keep-running-in-background"
    // A single server's, as releases before several servers kept them: read once to upgrade (`SettingsStore`).
    case serverURL = "server-url"
    case wakeMAC = "wake-mac"
    case wakeBroadcast = "wake-broadcast"
    case previewHost = "preview-host"
    case terminalShellCommand = "terminal-shell-command"
    case terminalJarvisCommand = "terminal-jarvis-command"
    case terminalCodexCommand = "terminal-codex-command"

    /// The keys that moved to each server's own settings.
    static let movedToServers: [SettingKey] = [
        .serverURL, .wakeMAC, .wakeBroadcast, .previewHost, .terminalShellCommand, .terminalJarvisCommand, .terminalCodexCommand,
    ]
}

/// Every key of one server's settings (schema `app.builderos.Desktop.Server`, relocatable, at `servers/ID/`).
public enum ServerSettingKey: String, CaseIterable, Sendable {
    case address
    case name
    case historyFile = "history-file"
    case wakeMAC = "wake-mac"
    case wakeBroadcast = "wake-broadcast"
    case previewHost = "preview-host"
    case terminalShellCommand = "terminal-shell-command"
    case terminalJarvisCommand = "terminal-jarvis-command"
    case terminalCodexCommand = "terminal-codex-command"
    case caFile = "ca-file"

    /// The command a terminal profile types after connecting.
    public static func terminalCommand(_ profile: TerminalProfile) -> ServerSettingKey {
        switch profile {
        case .shell: return .terminalShellCommand
        case .jarvis: return .terminalJarvisCommand
        case .codex: return .terminalCodexCommand
        }
    }
}
