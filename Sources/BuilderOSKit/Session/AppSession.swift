import Foundation

/// A signed-in session: the connection state machine and the chat service over one history.
/// One per app; every window and page observes the same instance.
@MainActor
public final class AppSession {
    public let server: ServerAddress
    public let deviceID: String
    public let connection: ConnectionController
    public let chat: ChatService
    private let apiKey: String

    public init(server: ServerAddress, apiKey: String, deviceID: String, history: any HistoryStoring,
                chatConfiguration: ChatConfiguration = .init()) {
        self.server = server
        self.deviceID = deviceID
        self.apiKey = apiKey
        connection = ConnectionController(server: server, apiKey: apiKey, chatConfiguration: chatConfiguration)
        chat = ChatService(history: history, deviceID: deviceID, connection: connection)
    }

    /// How a terminal tab opens its socket (the key stays in here).
    public func terminalConnector() -> TerminalSession.Connect {
        let (server, apiKey) = (server, apiKey)
        return { () async throws(BuilderOSError) -> any TerminalLink in
            try await TerminalConnection.open(server: server, apiKey: apiKey)
        }
    }

    /// The REST API with its own timeout (e.g. 10 s for sleep).
    public func api(timeout: Double) -> any BuilderOSAPI { connection.api.with(requestTimeout: timeout) }
}
