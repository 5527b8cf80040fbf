/// A signed-in session's API key as the keyring hands it over. The lookup starts once, when the
/// session is made, and runs beside the first frame instead of before it; every request and
/// socket of the session awaits the same answer. The key stays in memory only, as a session's key
/// always did — never cached anywhere but the Secret Service.
public final class SessionKey: Sendable {
    private let answer: Task<Result<String, BuilderOSError>, Never>

    /// A key the session already has (just typed into the setup wizard and stored).
    public init(_ key: String) {
        answer = Task { .success(key) }
    }

    /// A key to ask the keyring for, at once, off the caller's thread. No key stored: `.notSignedIn`.
    public init(lookingUp lookup: @escaping @Sendable () async throws(BuilderOSError) -> String?) {
        answer = Task {
            do throws(BuilderOSError) {
                guard let key = try await lookup() else { return .failure(.notSignedIn) }
                return .success(key)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The stored key for `server`, looked up in the Secret Service.
    public convenience init(server: ServerAddress, credentials: CredentialStore = CredentialStore()) {
        self.init { () async throws(BuilderOSError) -> String? in try await credentials.lookup(for: server) }
    }

    /// The key, once the keyring has answered; the lookup's failure otherwise (the same for every caller).
    public func value() async throws(BuilderOSError) -> String {
        try await answer.value.get()
    }
}
