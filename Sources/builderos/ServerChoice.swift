import ArgumentParser
import BuilderOSKit

/// `--server NAME|URL`, on every command that talks to a server or reads its history: which of the servers
/// set up on this computer (`builderos servers`) it is for; the active one when not given (`builderos use`).
struct ServerChoice: ParsableArguments {
    @Option(name: .customLong("server"), help: "The server to use: its name or address (default: the active one; see `builderos servers`).")
    var selector: String?

    /// The chosen server's settings; nil when none is chosen and none is set up.
    func profileIfAny(in settings: AppSettings) throws(CLIFailure) -> ServerProfile? {
        if selector == nil && settings.servers.isEmpty { return nil }
        return try profile(in: settings)
    }

    /// The chosen server's settings.
    func profile(in settings: AppSettings) throws(CLIFailure) -> ServerProfile {
        if let selector {
            guard let profile = settings.server(named: selector) else { throw CLIFailure(error: .unknownServer(selector)) }
            return profile
        }
        guard let active = settings.activeServer else { throw CLIFailure(error: .notSignedIn) }
        return active
    }
}
