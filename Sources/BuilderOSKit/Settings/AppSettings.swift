import Foundation

/// The non-secret settings as one value: the server address, this computer's device id, the appearance and every
/// other preference. Stored through GSettings (`SettingsStore`, schema `app.builderos.Desktop`); the Codable form
/// reads the JSON file of earlier versions once. The API key is never here: it lives only in the Secret Service.
public struct AppSettings: Codable, Sendable, Equatable {
    public var serverURL: String?
    public var deviceID: String
    public var appearance: Appearance
    /// The main window's last size and page.
    public var windowWidth = 1000
    public var windowHeight = 720
    public var page = "chat"
    /// Seconds between Dashboard refreshes; 0 turns auto-refresh off.
    public var autoRefreshSeconds = 60
    /// Which desktop notifications to show (each kind can be switched off).
    public var notifications = NotificationKinds()
    /// The server machine's MAC address for Wake-on-LAN, and an optional broadcast address.
    public var wakeMAC: String?
    public var wakeBroadcast: String?
    /// Closing the main window keeps the app (and its connection) running.
    public var keepRunningInBackground = false
    /// Where the Preview page opens dev servers when the server is reached through a tunnel
    /// (e.g. its Tailscale address); nil follows the server address (`PreviewHost`).
    public var previewHost: String?
    /// What a terminal tab of each profile types after (re)connecting; "" for nothing.
    public var terminalCommands: [TerminalProfile: String] = Dictionary(
        uniqueKeysWithValues: TerminalProfile.allCases.map { ($0, $0.defaultCommand) })

    enum CodingKeys: String, CodingKey {
        case serverURL = "server_url"
        case deviceID = "device_id"
        case appearance
        case windowWidth = "window_width"
        case windowHeight = "window_height"
        case page
        case autoRefreshSeconds = "auto_refresh_seconds"
        case notifications
        case wakeMAC = "wake_mac"
        case wakeBroadcast = "wake_broadcast"
        case keepRunningInBackground = "keep_running_in_background"
        case previewHost = "preview_host"
    }

    /// The auto-refresh intervals the preferences offer, in seconds (0 = off).
    public static let refreshChoices = [0, 30, 60, 300]

    public init(serverURL: String? = nil, deviceID: String = AppSettings.newDeviceID(), appearance: Appearance = .automatic) {
        self.serverURL = serverURL
        self.deviceID = deviceID
        self.appearance = appearance
    }

    /// Files written before a key existed (or by a newer version with values we do not know)
    /// still load: missing or unknown values take their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        serverURL = try? c.decodeIfPresent(String.self, forKey: .serverURL)
        deviceID = (try? c.decodeIfPresent(String.self, forKey: .deviceID)) ?? AppSettings.newDeviceID()
        appearance = (try? c.decodeIfPresent(Appearance.self, forKey: .appearance)) ?? .automatic
        let d = AppSettings(deviceID: "")
        windowWidth = (try? c.decodeIfPresent(Int.self, forKey: .windowWidth)).flatMap { $0 } ?? d.windowWidth
        windowHeight = (try? c.decodeIfPresent(Int.self, forKey: .windowHeight)).flatMap { $0 } ?? d.windowHeight
        page = (try? c.decodeIfPresent(String.self, forKey: .page)).flatMap { $0 } ?? d.page
        autoRefreshSeconds = (try? c.decodeIfPresent(Int.self, forKey: .autoRefreshSeconds)).flatMap { $0 } ?? d.autoRefreshSeconds
        notifications = (try? c.decodeIfPresent(NotificationKinds.self, forKey: .notifications)).flatMap { $0 } ?? d.notifications
        wakeMAC = (try? c.decodeIfPresent(String.self, forKey: .wakeMAC)).flatMap { $0 }
        wakeBroadcast = (try? c.decodeIfPresent(String.self, forKey: .wakeBroadcast)).flatMap { $0 }
        keepRunningInBackground = (try? c.decodeIfPresent(Bool.self, forKey: .keepRunningInBackground)).flatMap { $0 } ?? false
        previewHost = (try? c.decodeIfPresent(String.self, forKey: .previewHost)).flatMap { $0 }
    }

    public static func newDeviceID() -> String { "desktop-" + UUID().uuidString.lowercased() }

    /// The configured server, if any and valid.
    public var server: ServerAddress? { serverURL.flatMap { try? ServerAddress.parse($0) } }
}

/// The kinds of desktop notifications, each on by default.
public struct NotificationKinds: Codable, Sendable, Equatable {
    public var replies = true
    public var connection = true
    public var sleep = true

    public enum Kind: Sendable { case replies, connection, sleep }

    public init() {}

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        replies = (try? c.decodeIfPresent(Bool.self, forKey: .replies)).flatMap { $0 } ?? true
        connection = (try? c.decodeIfPresent(Bool.self, forKey: .connection)).flatMap { $0 } ?? true
        sleep = (try? c.decodeIfPresent(Bool.self, forKey: .sleep)).flatMap { $0 } ?? true
    }

    public func allows(_ kind: Kind) -> Bool {
        switch kind {
        case .replies: return replies
        case .connection: return connection
        case .sleep: return sleep
        }
    }
}
