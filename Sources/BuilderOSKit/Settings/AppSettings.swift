import Foundation

/// The non-secret settings as one value: the servers this computer is set up for (`ServerProfile`, each with its
/// own settings), which one is active, this computer's device id, the appearance and every app-wide preference.
/// Stored through GSettings (`SettingsStore`, schema `app.builderos.Desktop`); the Codable form reads the JSON file
/// of earlier versions once. The API keys are never here: they live only in the Secret Service.
public struct AppSettings: Decodable, Sendable, Equatable {
    /// In the order they were added.
    public var servers: [ServerProfile] = []
    public var activeServerID: String?
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
    /// Closing the main window keeps the app (and its connection) running.
    public var keepRunningInBackground = false

    /// The JSON file of versions before GSettings (`LegacySettingsFile`): one server, its settings at the top level.
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

    public init(deviceID: String = AppSettings.newDeviceID(), appearance: Appearance = .automatic) {
        self.deviceID = deviceID
        self.appearance = appearance
    }

    /// Files written before a key existed (or by a newer version with values we do not know)
    /// still load: missing or unknown values take their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        deviceID = (try? c.decodeIfPresent(String.self, forKey: .deviceID)) ?? AppSettings.newDeviceID()
        appearance = (try? c.decodeIfPresent(Appearance.self, forKey: .appearance)) ?? .automatic
        let d = AppSettings(deviceID: "")
        windowWidth = (try? c.decodeIfPresent(Int.self, forKey: .windowWidth)).flatMap { $0 } ?? d.windowWidth
        windowHeight = (try? c.decodeIfPresent(Int.self, forKey: .windowHeight)).flatMap { $0 } ?? d.windowHeight
        page = (try? c.decodeIfPresent(String.self, forKey: .page)).flatMap { $0 } ?? d.page
        autoRefreshSeconds = (try? c.decodeIfPresent(Int.self, forKey: .autoRefreshSeconds)).flatMap { $0 } ?? d.autoRefreshSeconds
        notifications = (try? c.decodeIfPresent(NotificationKinds.self, forKey: .notifications)).flatMap { $0 } ?? d.notifications
        keepRunningInBackground = (try? c.decodeIfPresent(Bool.self, forKey: .keepRunningInBackground)).flatMap { $0 } ?? false
        guard let url = (try? c.decodeIfPresent(String.self, forKey: .serverURL)).flatMap({ $0 }), let server = try? ServerAddress.parse(url)
        else { return }
        var profile = ServerProfile(address: server.baseURL, historyFile: HistoryStore.firstFileName)
        profile.wakeMAC = (try? c.decodeIfPresent(String.self, forKey: .wakeMAC)).flatMap { $0 }
        profile.wakeBroadcast = (try? c.decodeIfPresent(String.self, forKey: .wakeBroadcast)).flatMap { $0 }
        profile.previewHost = (try? c.decodeIfPresent(String.self, forKey: .previewHost)).flatMap { $0 }
        servers = [profile]
        activeServerID = profile.id
    }

    public static func newDeviceID() -> String { "desktop-" + UUID().uuidString.lowercased() }

    /// The active server's profile, if any.
    public var activeServer: ServerProfile? { servers.first { $0.id == activeServerID } }

    /// The active server's address, if any and valid.
    public var server: ServerAddress? { activeServer?.server }

    /// Changes the active server's own settings (nothing when no server is set up).
    public mutating func updateActiveServer(_ change: (inout ServerProfile) -> Void) {
        guard let index = servers.firstIndex(where: { $0.id == activeServerID }) else { return }
        change(&servers[index])
    }
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
