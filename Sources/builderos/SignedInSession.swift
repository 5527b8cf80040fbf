import BuilderOSKit

/// The saved server and its key from the keyring; what every command but `login` needs.
struct SignedInSession {
    let settings: AppSettings
    let server: ServerAddress
    let apiKey: String

    static func load(settingsStore: SettingsStore = .forOneRead()) async throws -> SignedInSession {
        let settings = settingsStore.load()
        guard let server = settings.server else { throw CLIFailure(error: .notSignedIn) }
        let key: String?
        // libcurl loads while the keyring answers (the request needs both).
        do { key = try await CredentialStore().lookup(for: server, whenConnected: RESTClient.loadInBackground) } catch { throw CLIFailure(error: error) }
        guard let key else { throw CLIFailure(error: .notSignedIn) }
        return SignedInSession(settings: settings, server: server, apiKey: key)
    }

    var client: RESTClient { RESTClient(server: server, apiKey: apiKey) }
}
