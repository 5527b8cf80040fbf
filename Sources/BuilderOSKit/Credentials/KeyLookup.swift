import CSecret
import Foundation

/// A keyring lookup started before its server is handed over. Its thread connects to the session
/// bus and opens the Secret Service session (the encrypted session's key exchange: the lookup's
/// longest round trips) while the caller does other work; `key(for:)` then hands over the server and
/// only the search and the secret remain. The CLI starts one as the process starts and asks for the
/// key once its arguments are parsed (`builderos/SignedInSession`); `CredentialStore.lookup` hands
/// the server over at once.
///
/// One lookup per instance: `key(for:)` once, or `cancel()` (what deinit does) when no server is
/// needed after all.
public final class KeyLookup: Sendable {
    private let handoff = Handoff()

    /// Starts at once, on a thread of its own. `whenConnected` runs on that thread once the bus
    /// connection (and GDBus's worker thread) exists, before the Secret Service is asked: the
    /// moment to start work that should overlap the round trips without holding up the threads
    /// they need (a `dlopen` holds the loader's lock, and a thread created meanwhile waits for it).
    public init(whenConnected: (@Sendable () -> Void)? = nil) {
        let handoff = self.handoff
        Thread.detachNewThread {
            // The bus libsecret uses is this process-wide singleton, kept while it is held; a failure
            // to connect is reported by the lookup below, in its own words.
            let bus = CredentialStore.sessionBus()
            defer { if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) } }
            whenConnected?()
            CredentialStore.openSecretServiceSession()
            guard let (server, answer) = handoff.request() else { return }
            answer(CredentialStore.lookupNow(for: server))
        }
    }

    deinit { handoff.cancel() }

    /// The stored key for `server`, or nil when none is stored for it.
    public func key(for server: ServerAddress) async throws(BuilderOSError) -> String? {
        let result = await withCheckedContinuation { continuation in
            handoff.give(server) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// No lookup after all (no server saved): the thread ends once the session is open.
    public func cancel() { handoff.cancel() }

    /// The server and where the answer goes, passed from the caller to the lookup's thread.
    private final class Handoff: @unchecked Sendable {
        typealias Answer = @Sendable (Result<String?, BuilderOSError>) -> Void
        private let condition = NSCondition()
        private var server: ServerAddress?
        private var answer: Answer?
        private var cancelled = false

        func give(_ server: ServerAddress, answer: @escaping Answer) {
            condition.lock()
            defer { condition.unlock() }
            guard self.server == nil, !cancelled else {
                answer(.failure(.other(detail: "a key lookup was asked twice or after it was cancelled")))
                return
            }
            (self.server, self.answer) = (server, answer)
            condition.signal()
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.signal()
            condition.unlock()
        }

        /// Blocks the lookup's thread until a server is given (nil once cancelled).
        func request() -> (ServerAddress, Answer)? {
            condition.lock()
            defer { condition.unlock() }
            while server == nil, !cancelled { condition.wait() }
            guard let server, let answer else { return nil }
            return (server, answer)
        }
    }
}
