import Foundation

/// A helper program a scenario runs to change the world around the app (a setting, a route, the
/// power mode), waited for.
enum Subprocess {
    /// Runs `program` with `arguments` (and `environment` added to the scenario's); true when it exits with 0.
    static func succeeds(_ program: String, _ arguments: [String], environment: [String: String] = [:]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
