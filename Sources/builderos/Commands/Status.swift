import ArgumentParser
import BuilderOSKit
import Foundation

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the server's status, version, latency and features.")

    @OptionGroup var target: ServerChoice

    @Flag(help: "Print JSON instead of text.") var json = false
    @Option(help: "How many status requests to time (the median latency is shown).") var samples = 1
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (1...20).contains(samples) else { throw ValidationError("--samples must be between 1 and 20.") }
    }

    func run() async throws {
        output.apply()
        let session = try await SignedInSession.load(target)
        let client = session.client
        do {
            // One request: the status reply says whether capsules and power are there on servers that list
            // their features. Only a server that does not is asked for its capsules (a 404: none).
            let (status, latency) = try await client.measuredStatus(samples: samples)
            let systemAvailable: Bool
            if let listed = SystemServerPresence.shown(by: status) {
                systemAvailable = listed
            } else {
                let capsules = await Result.of { () async throws(BuilderOSError) in try await client.capsules() }
                // Another failure fails the command.
                guard let shown = SystemServerPresence.shown(by: capsules) else { _ = try capsules.get(); return }
                systemAvailable = shown
            }
            if json {
                let object: [String: Any] = [
                    "server": session.server.baseURL, "name": session.profile.name, "status": status.status ?? NSNull(),
                    "version": status.version ?? NSNull(),
                    "uptime_seconds": status.uptime ?? NSNull(), "health": status.health ?? NSNull(),
                    "latency_ms": (latency * 10).rounded() / 10, "system_available": systemAvailable,
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
                Terminal.json(data)
            } else {
                Terminal.line(L("Server:    %@", session.server.displayURL))
                Terminal.line(L("Status:    %@", status.status ?? L("unknown")))
                Terminal.line(L("Version:   %@", status.version ?? L("unknown")))
                if let uptime = status.uptime { Terminal.line(L("Uptime:    %@", Durations.words(seconds: uptime))) }
                Terminal.line(L("Latency:   %@ ms", String(Int(latency.rounded()))))
                Terminal.line(L("Capsules and power: %@", systemAvailable ? L("available") : L("not available on this server")))
            }
        } catch { throw CLIFailure.wrap(error) }
    }
}

struct Capsules: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "capsules", abstract: "List the server's capsules.")

    @OptionGroup var target: ServerChoice

    @Flag(help: "Print JSON instead of text.") var json = false
    @OptionGroup var output: OutputOptions

    func run() async throws {
        output.apply()
        let session = try await SignedInSession.load(target)
        do {
            let list = try await session.client.capsules()
            if json {
                let items = list.capsules.map { ["name": $0.name, "title": $0.title ?? "", "purpose": $0.purpose ?? ""] }
                let data = try JSONSerialization.data(
                    withJSONObject: ["count": list.count ?? items.count, "capsules": items],
                    options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
                Terminal.json(data)
            } else if list.capsules.isEmpty {
                Terminal.line(L("This server has no capsules."))
            } else {
                for capsule in list.capsules {
                    Terminal.line("\(capsule.displayTitle) (\(capsule.name))")
                    if let purpose = capsule.purpose, !purpose.isEmpty { Terminal.line("    \(purpose)") }
                }
            }
        } catch { throw CLIFailure.wrap(error) }
    }
}
