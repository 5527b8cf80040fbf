import ArgumentParser
import BuilderOSKit
import Foundation

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Add a server, or replace a known server's key: tests the connection, then stores the key in your keyring.",
        discussion:
            "The key is read from a hidden prompt, or from standard input when it is not a terminal (for example "
            + "`builderos login --server URL < keyfile`). A new key for a known server is checked over the chat socket first; "
            + "a refused one changes nothing. The server becomes the active one."
    )

    @Option(help: "The server's address, e.g. https://builderos.example.com.") var server: String
    @Option(help: "A name for a new server (default: its host).") var name: String?
    @Option(
        help:
            "A PEM file of certificate authorities to trust for this server, in addition to the system's (a private or self-signed certificate)."
    )
    var caFile: String?
    @Flag(help: "Allow plain http:// to a public address without asking.") var allowInsecureHttp = false

    func run() async throws {
        let address: ServerAddress
        do { address = try ServerAddress.parse(server) } catch { throw CLIFailure(error: .invalidServerAddress(error)) }
        if let warning = address.transportWarning { Terminal.error(warning) }
        if address.requiresConfirmation && !allowInsecureHttp && !Terminal.confirm(L("Use this unencrypted connection anyway?")) {
            throw ValidationError(L("Refused an unencrypted connection over the internet. Use https://, or pass --allow-insecure-http."))
        }
        let account = Account(settingsStore: SettingsStore.forOneRead())
        let known = account.settingsStore.load().server(at: address)
        // A known server's extra authority goes on being trusted unless another is given.
        let authority = try caFile.map(Self.readableFile) ?? known?.caFile
        let key: String
        do { key = try Terminal.readKey(prompt: L("API key: ")) } catch { throw CLIFailure(error: .invalidAPIKey(error)) }

        Terminal.line(L("Testing %@…", address.displayURL))
        let report = await ConnectionTest(server: address, apiKey: key, configuration: ClientConfiguration(extraCAFile: authority)).run {
            step, outcome in
            if let line = ReportLine.text(step: step, outcome: outcome) { Terminal.line(line) }
        }
        if let failure = report.firstFailure {
            if let known { Terminal.error(L("Nothing was changed: %@ keeps the key it had.", known.name)) }
            throw CLIFailure(error: failure.error)
        }

        // Only now, with the test passed, is anything stored.
        let profile: ServerProfile
        do { profile = try await account.signIn(server: address, key: key, name: name ?? "", caFile: authority) } catch {
            throw CLIFailure(error: error)
        }
        Terminal.line(
            known == nil
                ? L("Signed in to %@, now the active server. The API key is stored in your keyring.", profile.name)
                : L("The key of %@ is replaced in your keyring; it is the active server.", profile.name))
    }
}

extension Login {
    /// The file as an absolute path, once it is known to be readable (the settings keep the path).
    static func readableFile(_ path: String) throws(CLIFailure) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.isReadableFile(atPath: absolute) else { throw CLIFailure(error: .fileUnreadable(path: path)) }
        return absolute
    }
}

/// `builderos logout`: forgets a server — its key, its settings and, when asked, its history.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget a server: remove its key from your keyring and its settings; its chat history stays unless --delete-history.")

    @OptionGroup var target: ServerChoice
    @Flag(help: "Delete the server's chat history on this computer too.") var deleteHistory = false

    func run() async throws {
        let account = Account(settingsStore: SettingsStore.forOneRead())
        let before = account.settingsStore.load()
        let profile = try target.profile(in: before)
        do { try await account.forget(id: profile.id, deleteHistory: deleteHistory) } catch { throw CLIFailure(error: error) }
        Terminal.line(L("Signed out of %@: its API key was removed from your keyring.", profile.name))
        Terminal.line(
            deleteHistory
                ? L("Its chat history was deleted from this computer.")
                : L("Its chat history stays on this computer; signing in to it again brings it back."))
        if profile.id == before.activeServerID, let active = account.settingsStore.load().activeServer {
            Terminal.line(L("The active server is now %@.", active.name))
        }
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
