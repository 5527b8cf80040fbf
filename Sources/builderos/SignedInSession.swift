import ArgumentParser
import BuilderOSKit
import Synchronization

/// The chosen server and its key from the keyring; what every command that talks to a server needs.
struct SignedInSession {
    let settings: AppSettings
    let profile: ServerProfile
    let server: ServerAddress
    let apiKey: String

    /// The commands that load a session: their settings are read, and their keyring lookup starts,
    /// before the arguments are parsed.
    static let commands: [any ParsableCommand.Type] = [Status.self, Capsules.self, Chat.self, TerminalCommand.self, Sleep.self]

    /// Reads the settings and starts the keyring lookup as the process starts, when the first argument
    /// names a command that needs them: parsing the arguments and setting up translations then overlap
    /// the lookup instead of coming ahead of it.
    /// The settings come first, on this thread, because reading them loads GIO's modules: a `dlopen`
    /// holds the dynamic loader's lock, and every thread created meanwhile waits for it — the lookup's
    /// bus connection creates GDBus's thread, whose first message then waited.
    static func startEarly(arguments: [String]) {
        guard let name = arguments.dropFirst().first, commands.contains(where: { $0.configuration.commandName == name }) else { return }
        let settings = SettingsStore.forOneRead().load()
        early.withLock { $0 = (settings, start(with: settings)) }
    }

    private static let early = Mutex<(AppSettings, KeyLookup?)?>(nil)

    /// The lookup (nil when no server is saved), with libcurl loading meanwhile. Which server's key it
    /// fetches is told when the arguments are parsed (`load`).
    private static func start(with settings: AppSettings) -> KeyLookup? {
        guard !settings.servers.isEmpty else { return nil }
        // libcurl loads once the lookup's bus connection (and its threads) exist, while the keyring answers.
        return KeyLookup(whenConnected: RESTClient.loadInBackground)
    }

    /// The session with the chosen server: from what `startEarly` began, or read and started now.
    static func load(_ choice: ServerChoice) async throws -> SignedInSession {
        let started = early.withLock { started in
            defer { started = nil }; return started
        }
        let (settings, lookup) =
            started
            ?? {
                let s = SettingsStore.forOneRead().load(); return (s, start(with: s))
            }()
        let profile = try choice.profile(in: settings)
        guard let server = profile.server, let lookup else { throw CLIFailure(error: .notSignedIn) }
        let key: String?
        do { key = try await lookup.key(for: server) } catch { throw CLIFailure(error: error) }
        guard let key else { throw CLIFailure(error: .notSignedIn) }
        return SignedInSession(settings: settings, profile: profile, server: server, apiKey: key)
    }

    var client: RESTClient { RESTClient(server: server, apiKey: apiKey, configuration: profile.network) }
}
