import BuilderOSKit

/// The saved server and its key from the keyring; what every command but `login` needs.
struct SignedInSession {
    let settings: AppSettings
    let server: ServerAddress
    let apiKey: String

    static func load(settingsStore: @autoclosure () -> SettingsStore = .forOneRead()) async throws -> SignedInSession {
        // The keyring's session opens while the settings are read, and libcurl loads while the
        // keyring answers (the request needs both).
        let lookup = KeyLookup(whenConnected: RESTClient.loadInBackground)
        let settings = settingsStore().load()
        guard let server = settings.server else { throw CLIFailure(error: .notSignedIn) }
        let key: String?
        do { key = try await lookup.key(for: server) } catch { throw CLIFailure(error: error) }
        guard let key else { throw CLIFailure(error: .notSignedIn) }
        return SignedInSession(settings: settings, server: server, apiKey: key)
    }

    var client: RESTClient { RESTClient(server: server, apiKey: apiKey) }
}
