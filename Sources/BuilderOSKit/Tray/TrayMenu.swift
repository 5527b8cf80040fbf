/// The tray's menu as data: stable ids (D-Bus clients refer to items by id), labels with mnemonics,
/// and which are enabled. The D-Bus export (`DesktopUI/Tray/DBusMenu`) serialises it.
public struct TrayMenu: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case open, connect, disconnect, newChat, newTerminal, sleepServer, preferences, quit
        case switchServer(id: String), addServer
    }

    public struct Item: Sendable, Equatable {
        public let id: Int32
        public let label: String
        public let enabled: Bool
        /// nil for a separator.
        public let action: Action?
        /// A radio item's state (a server: the active one is on); nil for a plain item.
        public var checked: Bool? = nil
        public var isSeparator: Bool { action == nil }
    }

    public let items: [Item]

    /// The first id of the Servers section's items, one per server in the list's order.
    static let firstServerID: Int32 = 100

    /// - Parameters:
    ///   - windowShown: the main window is on screen (Open then reads "Hide BuilderOS").
    ///   - servers: every server set up, each with its state; the active one checked; then Add Server….
    public init(status: TrayStatus, windowShown: Bool, servers: [ServerEntry] = []) {
        let connection: Action = status.wantsConnection ? .disconnect : .connect
        let serverItems = servers.enumerated().map { index, server in
            Item(
                id: Self.firstServerID + Int32(index), label: L("%@ — %@", server.name, server.stateText), enabled: true,
                action: .switchServer(id: server.id), checked: server.active)
        }
        let serversSection =
            servers.isEmpty
            ? []
            : serverItems + [
                Item(id: 10, label: L("_Add Server…"), enabled: true, action: .addServer), Item(id: 11, label: "", enabled: true, action: nil),
            ]
        items =
            [
                Item(id: 1, label: windowShown ? L("_Hide BuilderOS") : L("_Open BuilderOS"), enabled: true, action: .open),
                Item(id: 2, label: "", enabled: true, action: nil),
            ] + serversSection + [
                Item(id: 3, label: connection == .connect ? L("_Connect") : L("_Disconnect"), enabled: status.signedIn, action: connection),
                Item(id: 4, label: L("_New Chat"), enabled: status.signedIn, action: .newChat),
                Item(id: 9, label: L("New _Terminal"), enabled: status.signedIn, action: .newTerminal),
                Item(id: 5, label: L("_Sleep Server…"), enabled: status.canSleep, action: .sleepServer),
                Item(id: 6, label: "", enabled: true, action: nil),
                Item(id: 7, label: L("_Preferences"), enabled: true, action: .preferences),
                Item(id: 8, label: L("_Quit"), enabled: true, action: .quit),
            ]
    }

    public func item(id: Int32) -> Item? { items.first { $0.id == id } }
}
