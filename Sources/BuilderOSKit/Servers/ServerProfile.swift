import Foundation

/// One server this computer is set up for: its address, the name shown for it, its own history and
/// the settings that belong to that machine. Its API key is in the Secret Service under `address`.
/// Stored by `SettingsStore` under `/app/builderos/Desktop/servers/ID/` (schema `app.builderos.Desktop.Server`).
public struct ServerProfile: Sendable, Equatable, Identifiable {
    /// Stable for the profile's life: the settings path's last part. Never shown.
    public let id: String
    /// The normalised base URL (`ServerAddress.baseURL`).
    public var address: String
    /// What lists and menus show; empty means the address's host.
    public var customName: String
    /// The history's file name in the data folder (`HistoryStore.path(forFile:)`).
    public var historyFile: String
    /// The server machine's MAC address for Wake-on-LAN, and an optional broadcast address.
    public var wakeMAC: String?
    public var wakeBroadcast: String?
    /// Where the Preview page opens dev servers when the server is reached through a tunnel
    /// (e.g. its Tailscale address); nil follows the server address (`PreviewHost`).
    public var previewHost: String?
    /// A PEM file of certificate authorities trusted for this server in addition to the system's (a private or
    /// self-signed certificate); verification itself is never switched off.
    public var caFile: String?
    /// What a terminal tab of each profile types after (re)connecting; "" for nothing.
    public var terminalCommands: [TerminalProfile: String] = Dictionary(
        uniqueKeysWithValues: TerminalProfile.allCases.map { ($0, $0.defaultCommand) })

    public init(id: String = ServerProfile.newID(), address: String, customName: String = "", historyFile: String) {
        (self.id, self.address, self.customName, self.historyFile) = (id, address, customName, historyFile)
    }

    public static func newID() -> String { UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12).description }

    /// How every request and socket to this server is made: with its extra authority, if any.
    public var network: ClientConfiguration { ClientConfiguration(extraCAFile: caFile) }

    /// The parsed address (nil only for a value edited by hand outside the app).
    public var server: ServerAddress? { try? ServerAddress.parse(address) }

    /// The name lists show: the one the user gave, or the address's host as people read it (with its port when
    /// not the default). Decoded by GLib, not `URLComponents.host`, which loads ICU's data for it (the window
    /// shows a name at every start).
    public var name: String {
        if !customName.isEmpty { return customName }
        guard let server else { return address }
        return (server.unicodeHost ?? server.host) + (server.port.map { ":\($0)" } ?? "")
    }
}
