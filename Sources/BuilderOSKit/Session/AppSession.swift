import Foundation

/// A signed-in session: the connection state machine and the chat service over one history.
/// One per app; every window and page observes the same instance.
@MainActor
public final class AppSession {
    public let server: ServerAddress
    public let deviceID: String
    public let connection: ConnectionController
    public let chat: ChatService
    /// Search across the history (nil when the history has no file).
    public let search: HistorySearchService?
    /// The key, possibly still on its way from the keyring: the session is made (and its window
    /// shown) without waiting for it.
    public let key: SessionKey
    /// How its requests and sockets are made (the server's extra certificate authority, if any).
    public let network: ClientConfiguration

    public init(
        server: ServerAddress, key: SessionKey, deviceID: String, history: any HistoryStoring,
        chatConfiguration: ChatConfiguration = .init()
    ) {
        self.server = server
        self.deviceID = deviceID
        self.key = key
        network = chatConfiguration.network
        connection = ConnectionController(server: server, key: key, chatConfiguration: chatConfiguration)
        chat = ChatService(history: history, deviceID: deviceID, connection: connection)
        search = HistorySearchService(history: history)
    }

    public convenience init(
        server: ServerAddress, apiKey: String, deviceID: String, history: any HistoryStoring,
        chatConfiguration: ChatConfiguration = .init()
    ) {
        self.init(server: server, key: SessionKey(apiKey), deviceID: deviceID, history: history, chatConfiguration: chatConfiguration)
    }

    /// How a terminal tab opens its socket (the key stays in here).
    public func terminalConnector() -> TerminalSession.Connect {
        let (server, key, network) = (server, key, network)
        return { () async throws(BuilderOSError) -> any TerminalLink in
            try await TerminalConnection.open(server: server, apiKey: try await key.value(), configuration: network)
        }
    }

    /// The REST API with its own timeout (e.g. 10 s for sleep).
    public func api(timeout: Double) -> any BuilderOSAPI { connection.api.with(requestTimeout: timeout) }
}
