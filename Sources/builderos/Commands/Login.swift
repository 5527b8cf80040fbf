import ArgumentParser
import BuilderOSKit
import Foundation

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a server: tests the connection, then stores the key in your keyring.",
        discussion:
            "The key is read from a hidden prompt, or from standard input when it is not a terminal (for example `builderos login --server URL < keyfile`)."
    )

    @Option(help: "The server's address, e.g. https://builderos.example.com.") var server: String
    @Flag(help: "Allow plain http:// to a public address without asking.") var allowInsecureHttp = false

    func run() async throws {
        let address: ServerAddress
        do { address = try ServerAddress.parse(server) } catch { throw CLIFailure(error: .invalidServerAddress(error)) }
        if let warning = address.transportWarning { Terminal.error(warning) }
        if address.requiresConfirmation && !allowInsecureHttp && !Terminal.confirm(L("Use this unencrypted connection anyway?")) {
            throw ValidationError(L("Refused an unencrypted connection over the internet. Use https://, or pass --allow-insecure-http."))
        }
        let key: String
        do { key = try Terminal.readKey(prompt: L("API key: ")) } catch { throw CLIFailure(error: .invalidAPIKey(error)) }

        Terminal.line(String(format: L("Testing %@…"), address.displayURL))
        let report = await ConnectionTest(server: address, apiKey: key).run { step, outcome in
            if let line = ReportLine.text(step: step, outcome: outcome) { Terminal.line(line) }
        }
        if let failure = report.firstFailure { throw CLIFailure(error: failure.error) }

        // Only now, with the test passed, is anything stored.
        do { try await Account().signIn(server: address, key: key) } catch { throw CLIFailure(error: error) }
        Terminal.line(L("Signed in. The API key is stored in your keyring."))
    }
}

/// One line per finished step of the connection test.
enum ReportLine {
    static func text(step: ConnectionTestStep, outcome: ConnectionTestOutcome) -> String? {
        switch outcome {
        case .running, .skipped: return nil
        case .passed(let detail): return "  ✓ \(step.title) — \(detail)"
        case .passedWithNote(let note): return "  ! \(step.title) — \(note)"
        case .failed: return "  ✗ \(step.title)"
        }
    }
}
