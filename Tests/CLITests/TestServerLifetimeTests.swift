import Foundation
import ProcessHarness
import Testing

/// The reference server as the tests start it (`ServerProcess`): it ends with the process that
/// holds its input, so a test process that crashes leaves no server behind to keep `swift test`
/// waiting for the output they share.
struct TestServerLifetimeTests {
    @Test func aServerStartedToEndWithItsInputEndsWhenTheInputDoes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-srv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.path("builderos-server"))
        process.arguments = ["--port", "0", "--key-file", folder.appendingPathComponent("api-key").path, "--exit-when-input-ends"]
        let input = try ServerInput()
        let output = Pipe()
        process.standardInput = input.serverEnd
        process.standardOutput = output
        try process.run()
        try? input.serverEnd.close()
        // Listening first: then the end of its input is what ends it.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("listening on") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        #expect(process.isRunning, "the server runs while its input is open")
        try input.heldEnd.close()
        // The bound of a hang, not a timing.
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        let ended = !process.isRunning
        if !ended { process.terminate() }
        process.waitUntilExit()
        #expect(ended && process.terminationStatus == 0, "the server exited by itself once its input ended")
    }
}
