import Synchronization
import Testing
@testable import BuilderOSKit

/// The session's key as the keyring hands it over: asked for once, shared by every caller, and a
/// missing key or a failing keyring reaches each of them as the same error.
struct SessionKeyTests {
    @Test func aKeyInHandIsTheKey() async throws {
        #expect(try await SessionKey("key-in-hand-1234").value() == "key-in-hand-1234")
    }

    @Test func theKeyringIsAskedOnceForEveryCaller() async throws {
        let lookups = Mutex(0)
        let key = SessionKey { () async throws(BuilderOSError) -> String? in
            lookups.withLock { $0 += 1 }
            return "key-from-the-keyring"
        }
        async let first = key.value()
        async let second = key.value()
        let (a, b) = try await (first, second)
        #expect(a == "key-from-the-keyring" && b == a)
        #expect(try await key.value() == a)
        #expect(lookups.withLock { $0 } == 1)
    }

    @Test func noStoredKeyMeansNotSignedIn() async {
        let key = SessionKey { () async throws(BuilderOSError) -> String? in nil }
        await #expect(throws: BuilderOSError.notSignedIn) { try await key.value() }
    }

    @Test func theKeyringsFailureReachesEveryCaller() async {
        let key = SessionKey { () async throws(BuilderOSError) -> String? in throw .secretServiceUnavailable }
        await #expect(throws: BuilderOSError.secretServiceUnavailable) { try await key.value() }
        await #expect(throws: BuilderOSError.secretServiceUnavailable) { try await key.value() }
    }

    @Test func aKeyringAnswerEndsReconnecting() {
        // A session's key is looked up once: a socket retrying after these would only fail again.
        for error in [BuilderOSError.notSignedIn, .secretServiceUnavailable, .keyringLocked] { #expect(error.stopsReconnecting) }
        #expect(!BuilderOSError.connectionRefused.stopsReconnecting)
    }
}
