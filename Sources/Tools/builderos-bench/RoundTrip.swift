import BuilderOSKit
import Foundation

/// Send → first chunk over the real chat socket on loopback, one turn after another.
enum RoundTrip {
    static func measure(server: ServerAddress, key: String, turns: Int) async -> [Double] {
        let client = ChatClient(server: server, apiKey: key, agent: .jarvis)
        await client.start()
        var iterator = client.events.makeAsyncIterator()
        var results: [Double] = []
        // Wait until connected.
        while let event = await iterator.next() { if event == .connection(.connected) { break } }
        for i in 0..<turns {
            let start = DispatchTime.now()
            _ = await client.send(OutgoingChatMessage(content: "ping \(i)", sessionId: "bench", deviceId: "bench", agent: .jarvis))
            var first = true
            while let event = await iterator.next() {
                if case .delta = event, first {
                    results.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
                    first = false
                }
                if case .finished = event { break }
            }
        }
        await client.shutdown()
        return results
    }
}

/// The app's benchmark switch (GtkKit.BenchmarkExit.variable), named here without linking GTK.
enum BenchmarkExitVariable {
    static let name = "BUILDEROS_BENCHMARK_EXIT_AFTER_FIRST_FRAME"
    /// Where the process writes its first painted frame's time (GtkKit.BenchmarkExit.frameFileVariable).
    static let frameFile = "BUILDEROS_BENCHMARK_FIRST_FRAME_FILE"
}
