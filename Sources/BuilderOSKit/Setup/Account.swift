/// Signing in, adding, replacing a key and forgetting, shared by the wizard, the app and the CLI. A key goes into
/// the Secret Service before the settings name its server, and only after a passed connection test (the callers').
/// The asynchronous ones go on where they were called (`nonisolated(nonsending)`): the app's settings are
/// written on its main thread, where GSettings' file backend also reloads them (it has no lock of its own).
public struct Account: Sendable {
    public let credentials: CredentialStore
    public let settingsStore: SettingsStore

    public init(credentials: CredentialStore = CredentialStore(), settingsStore: SettingsStore = SettingsStore()) {
        (self.credentials, self.settingsStore) = (credentials, settingsStore)
    }

    /// Signs in and makes the server the active one: a known address gets the new key in place of its old one
    /// (the keyring item is updated in one step); a new address is added — or, when `replacing` names a server
    /// (the user changing its address), that server moves there with its history and settings, and the old
    /// address's key is removed. `caFile`, when given, is the extra authority the connection test trusted.
    @discardableResult
    nonisolated(nonsending) public func signIn(
        server: ServerAddress, key keyInput: String, name: String = "", replacing: String? = nil, caFile: String? = nil
    )
        async throws(BuilderOSError) -> ServerProfile
    {
        try await credentials.store(key: try Self.validated(keyInput), for: server)
        var settings = settingsStore.load()
        var movedFrom: ServerAddress?
        if let known = settings.server(at: server) {
            settings.activate(id: known.id)
        } else if let replacing, let index = settings.servers.firstIndex(where: { $0.id == replacing }) {
            movedFrom = settings.servers[index].server
            settings.servers[index].address = server.baseURL
            settings.activate(id: replacing)
        } else {
            try settings.addServer(server, name: name)
        }
        if let caFile { settings.updateActiveServer { $0.caFile = caFile } }
        try settingsStore.save(settings)
        if let movedFrom { try? await credentials.clear(for: movedFrom) }
        return settings.activeServer!
    }

    /// Adds a server that is not set up yet and makes it the active one; the same address twice is refused
    /// before anything is stored.
    @discardableResult
    nonisolated(nonsending) public func add(server: ServerAddress, key: String, name: String = "", caFile: String? = nil) async throws(BuilderOSError)
        -> ServerProfile
    {
        if let known = settingsStore.load().server(at: server) { throw .serverAlreadyAdded(name: known.name) }
        return try await signIn(server: server, key: key, name: name, caFile: caFile)
    }

    /// Forgets a server: its key leaves the keyring first (a locked keyring stops here, changing nothing), then
    /// its settings. Its history is deleted when asked; otherwise it is kept under the name of its address, where
    /// signing in to that server again finds it (`addServer`). The first remaining server becomes active when it was.
    nonisolated(nonsending) public func forget(id: String, deleteHistory: Bool = false) async throws(BuilderOSError) {
        var settings = settingsStore.load()
        guard let profile = settings.servers.first(where: { $0.id == id }) else { throw .notSignedIn }
        if let server = profile.server { try await credentials.clear(for: server) }
        settings.removeServer(id: id)
        try settingsStore.save(settings)
        if deleteHistory {
            try HistoryStore.delete(file: profile.historyFile)
        } else if let server = profile.server, profile.historyFile != HistoryStore.fileName(for: server) {
            try? HistoryStore.rename(file: profile.historyFile, to: HistoryStore.fileName(for: server))
        }
    }

    /// Forgets the active server, keeping its history.
    nonisolated(nonsending) public func signOut() async throws(BuilderOSError) {
        guard let active = settingsStore.load().activeServer else { throw .notSignedIn }
        try await forget(id: active.id)
    }

    /// Renames a server (an empty name: its address's host).
    public func rename(id: String, to name: String) throws(BuilderOSError) {
        var settings = settingsStore.load()
        try settings.rename(id: id, to: name)
        try settingsStore.save(settings)
    }

    /// Makes another server in the list the active one.
    public func use(id: String) throws(BuilderOSError) {
        var settings = settingsStore.load()
        settings.activate(id: id)
        try settingsStore.save(settings)
    }

    /// The last gate before the keyring: whatever the caller checked, only a valid key is stored.
    private static func validated(_ key: String) throws(BuilderOSError) -> String {
        do { return try APIKey.validated(key) } catch { throw .invalidAPIKey(error) }
    }
}
