/// Signing in and out, shared by the wizard and the CLI: the key goes into the Secret Service
/// and the address into the settings, in that order, and only after a passed connection test.
public struct Account: Sendable {
    public let credentials: CredentialStore
    public let settingsStore: SettingsStore

    public init(credentials: CredentialStore = CredentialStore(), settingsStore: SettingsStore = SettingsStore()) {
        (self.credentials, self.settingsStore) = (credentials, settingsStore)
    }

    /// Stores the key, then the address. A server the user moved away from loses its key.
    public func signIn(server: ServerAddress, key keyInput: String) async throws(BuilderOSError) {
        // The last gate before the keyring: whatever the caller checked, only a valid key is stored.
        let key: String
        do { key = try APIKey.validated(keyInput) } catch { throw .invalidAPIKey(error) }
        try await credentials.store(key: key, for: server)
        var settings = settingsStore.load()
        let previous = settings.server
        settings.serverURL = server.baseURL
        try settingsStore.save(settings)
        if let previous, previous != server { try? await credentials.clear(for: previous) }
    }

    /// Removes the key from the keyring, then forgets the server.
    public func signOut() async throws(BuilderOSError) {
        var settings = settingsStore.load()
        guard let server = settings.server else { throw .notSignedIn }
        try await credentials.clear(for: server)
        settings.serverURL = nil
        try settingsStore.save(settings)
    }
}
