/// A signed-in session's API key as the keyring hands it over. The lookup runs once, off the
/// caller's thread, and every request and socket of the session awaits the same answer. The key
/// stays in memory only, as a session's key always did — never cached anywhere but the Secret Service.
///
/// A session opened with its window waits to ask until `start()`, which the app calls once that
/// window has painted its first frame: the lookup's key exchange (Diffie-Hellman on both sides of
/// the bus) then does not compete with the first frame for a small machine's cores. Nothing the
/// first frame shows needs the key (docs/performance.md, rule 2).
public final class SessionKey: Sendable {
    private let answer: Task<Result<String, BuilderOSError>, Never>
    private let started: Latch?

    /// A key the session already has (just typed into the setup wizard and stored).
    public init(_ key: String) {
        answer = Task { .success(key) }
        started = nil
    }

    /// A key to ask the keyring for, off the caller's thread: at once, or with `waitingForStart`
    /// once `start()` is called. No key stored: `.notSignedIn`.
    public init(waitingForStart: Bool = false, lookingUp lookup: @escaping @Sendable () async throws(BuilderOSError) -> String?) {
        let started = waitingForStart ? Latch() : nil
        self.started = started
        answer = Task {
            await started?.wait()
            do throws(BuilderOSError) {
                guard let key = try await lookup() else { return .failure(.notSignedIn) }
                return .success(key)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The stored key for `server`, looked up in the Secret Service.
    public convenience init(server: ServerAddress, credentials: CredentialStore = CredentialStore(), waitingForStart: Bool = false) {
        self.init(waitingForStart: waitingForStart) { () async throws(BuilderOSError) -> String? in try await credentials.lookup(for: server) }
    }

    /// Lets a lookup made `waitingForStart` begin; does nothing for any other key, or a second time.
    public func start() { started?.open() }

    /// The key, once the keyring has answered; the lookup's failure otherwise (the same for every caller).
    public func value() async throws(BuilderOSError) -> String {
        try await answer.value.get()
    }
}
