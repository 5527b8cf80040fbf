import ArgumentParser
import BuilderOSKit
import Foundation

/// `builderos servers`: every server set up on this computer, the active one marked, each with its state.
struct Servers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "servers", abstract: "List the servers set up on this computer, the active one marked with *, and how each answers.")

    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        let settings = SettingsStore.forOneRead().load()
        let states = await ServerProbe.check(settings.servers)
        if json {
            let list: [[String: Any]] = zip(settings.servers, states).map { profile, state in
                var entry: [String: Any] = [
                    "name": profile.name, "address": profile.address, "active": profile.id == settings.activeServerID, "state": state.code,
                ]
                if case .online(let ms) = state { entry["latency_ms"] = (ms * 10).rounded() / 10 }
                return entry
            }
            let data = try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            return Terminal.json(data)
        }
        guard !settings.servers.isEmpty else { return Terminal.line(L("No server is set up yet. Add one: builderos login --server URL")) }
        let width = settings.servers.map(\.name.count).max() ?? 0
        for (profile, state) in zip(settings.servers, states) {
            let mark = profile.id == settings.activeServerID ? "*" : " "
            let name = profile.name.padding(toLength: max(width, profile.name.count), withPad: " ", startingAt: 0)
            Terminal.line("\(mark) \(name)  \(profile.server?.displayURL ?? profile.address)  \(state.title)")
        }
    }
}

/// `builderos rename NAME NEW-NAME`: the name lists show and `--server` takes.
struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename a server (an empty name gives it its address's host again).")

    @Argument(help: "The server's name or address (see builderos servers).") var server: String
    @Argument(help: "Its new name.") var name: String

    func run() throws {
        let account = Account(settingsStore: SettingsStore.forOneRead())
        guard let profile = account.settingsStore.load().server(named: server) else { throw CLIFailure(error: .unknownServer(server)) }
        do { try account.rename(id: profile.id, to: name) } catch { throw CLIFailure(error: error) }
        let renamed = account.settingsStore.load().servers.first { $0.id == profile.id }?.name ?? name
        Terminal.line(L("%@ is now called %@.", profile.address, renamed))
    }
}

/// `builderos use NAME`: the server commands use when `--server` is not given (and the app opens with).
struct Use: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use", abstract: "Make a server the active one: the one commands use without --server, and the app shows.")

    @Argument(help: "The server's name or address (see builderos servers).") var server: String

    func run() throws {
        let account = Account(settingsStore: SettingsStore.forOneRead())
        guard let profile = account.settingsStore.load().server(named: server) else { throw CLIFailure(error: .unknownServer(server)) }
        do { try account.use(id: profile.id) } catch { throw CLIFailure(error: error) }
        Terminal.line(L("%@ is now the active server.", profile.name))
    }
}
