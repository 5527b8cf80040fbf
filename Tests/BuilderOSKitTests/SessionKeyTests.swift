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

    @Test func aKeyWaitingForStartAsksTheKeyringOnlyOnceStarted() async throws {
        let lookups = Mutex(0)
        let key = SessionKey(waitingForStart: true) { () async throws(BuilderOSError) -> String? in
            lookups.withLock { $0 += 1 }
            return "key-after-the-first-frame"
        }
        // A caller may ask before the start (a socket opened early): it gets the key once asked for.
        async let early = key.value()
        for _ in 0..<100 { await Task.yield() }
        #expect(lookups.withLock { $0 } == 0)
        key.start()
        #expect(try await early == "key-after-the-first-frame")
        key.start()
        #expect(try await key.value() == "key-after-the-first-frame")
        #expect(lookups.withLock { $0 } == 1)
    }

    @Test func aLatchLetsWaitersOnBeforeAndAfterItOpens() async {
        let latch = Latch()
        async let before: Void = latch.wait()
        latch.open()
        latch.open()
        await before
        await latch.wait()
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
