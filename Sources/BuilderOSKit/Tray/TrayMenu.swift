/// The tray's menu as data: stable ids (D-Bus clients refer to items by id), labels with mnemonics,
/// and which are enabled. The D-Bus export (`DesktopUI/Tray/DBusMenu`) serialises it.
public struct TrayMenu: Sendable, Equatable {
    public enum Action: String, Sendable {
        case open, connect, disconnect, newChat, newTerminal, sleepServer, preferences, quit
    }

    public struct Item: Sendable, Equatable {
        public let id: Int32
        public let label: String
        public let enabled: Bool
        /// nil for a separator.
        public let action: Action?
        public var isSeparator: Bool { action == nil }
    }

    public let items: [Item]

    /// - Parameter windowShown: the main window is on screen (Open then reads "Hide BuilderOS").
    public init(status: TrayStatus, windowShown: Bool) {
        let connection: Action = status.wantsConnection ? .disconnect : .connect
        items = [
            Item(id: 1, label: windowShown ? L("_Hide BuilderOS") : L("_Open BuilderOS"), enabled: true, action: .open),
            Item(id: 2, label: "", enabled: true, action: nil),
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
