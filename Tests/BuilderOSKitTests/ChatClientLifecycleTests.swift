import Testing

@testable import BuilderOSKit

/// The client's start and shutdown, without a socket: the app sends them as separate tasks, so they can
/// arrive in either order, and shutdown must win.
struct ChatClientLifecycleTests {
    func client() throws -> ChatClient {
        ChatClient(server: try ServerAddress.parse("http://127.0.0.1:9"), apiKey: "not-a-real-key", agent: .jarvis)
    }

    @Test func aStartArrivingAfterShutdownDoesNothing() async throws {
        let client = try client()
        await client.shutdown()
        await client.start()
        #expect(await !client.isRunning)
        #expect(await client.state == .disconnected)
    }

    @Test func shutdownAfterStartStopsForGood() async throws {
        let client = try client()
        await client.start()
        #expect(await client.isRunning)
        await client.shutdown()
        #expect(await !client.isRunning)
        await client.start()
        #expect(await !client.isRunning)
        // The event stream has ended (a listener's loop finishes, or this test would hang), and whatever it
        // said last leaves the client disconnected.
        var last: ChatEvent?
        for await event in client.events { last = event }
        #expect(last == nil || last == .connection(.disconnected))
    }
}
