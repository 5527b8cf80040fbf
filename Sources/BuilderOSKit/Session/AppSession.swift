import Foundation

/// A signed-in session: the connection state machine and the chat service over one history.
/// One per app; every window and page observes the same instance.
@MainActor
public final class AppSession {
    public let server: ServerAddress
    public let deviceID: String
    public let connection: ConnectionController
    public let chat: ChatService

    public init(server: ServerAddress, apiKey: String, deviceID: String, history: HistoryStore,
                chatConfiguration: ChatConfiguration = .init()) {
        self.server = server
        self.deviceID = deviceID
        connection = ConnectionController(server: server, apiKey: apiKey, chatConfiguration: chatConfiguration)
        chat = ChatService(history: history, deviceID: deviceID, connection: connection)
    }

    /// A REST client with its own timeout (e.g. 10 s for sleep).
    public func restClient(timeout: Double) -> RESTClient { connection.rest.with(requestTimeout: timeout) }
}
