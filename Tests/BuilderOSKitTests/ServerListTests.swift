import Foundation
import Testing

@testable import BuilderOSKit

/// The server list's rules on plain values: no keyring, no settings backend, no files.
struct ServerListTests {
    let mini = try! ServerAddress.parse("https://mini.example.com")
    let studio = try! ServerAddress.parse("http://100.64.0.5:8080")

    @Test func addingMakesTheServerActiveAndRefusesTheSameAddressTwice() throws {
        var s = AppSettings()
        let first = try s.addServer(mini, fileExists: { _ in false })
        #expect(s.activeServer == first && first.name == "mini.example.com" && first.historyFile == HistoryStore.firstFileName)
        let second = try s.addServer(studio, name: " studio ", fileExists: { _ in false })
        #expect(s.activeServerID == second.id && second.name == "studio")
        // The same server however it is written: refused with its name, nothing changed.
        #expect(throws: BuilderOSError.serverAlreadyAdded(name: "mini.example.com")) {
            try s.addServer(ServerAddress.parse("HTTPS://Mini.Example.com/"), fileExists: { _ in false })
        }
        #expect(s.servers.count == 2 && s.activeServerID == second.id)
    }

    @Test func eachServerGetsAHistoryOfItsOwnAndAForgottenOneFindsItsOwnAgain() throws {
        var s = AppSettings()
        try s.addServer(mini, fileExists: { _ in false })
        let studioProfile = try s.addServer(studio, fileExists: { _ in false })
        #expect(studioProfile.historyFile == HistoryStore.fileName(for: studio))
        #expect(HistoryStore.fileName(for: mini) != HistoryStore.fileName(for: studio))
        // The name does not change between releases: a kept history is found by it.
        #expect(HistoryStore.fileName(for: mini) == "history-997b48f9bb18c396.sqlite3")

        // A history made before any server (imported) is the first server's.
        var fresh = AppSettings()
        let other = try fresh.addServer(studio, fileExists: { $0 == HistoryStore.firstFileName })
        #expect(other.historyFile == HistoryStore.firstFileName)
        // A history this address kept is its own again.
        var again = AppSettings()
        let back = try again.addServer(mini, fileExists: { $0 == HistoryStore.fileName(for: self.mini) })
        #expect(back.historyFile == HistoryStore.fileName(for: mini))
    }

    @Test func aServerIsFoundByNameOrByAddressHoweverWritten() throws {
        var s = AppSettings()
        try s.addServer(mini, fileExists: { _ in false })
        try s.addServer(studio, name: "Studio", fileExists: { _ in false })
        #expect(s.server(named: "studio")?.address == studio.baseURL)
        #expect(s.server(named: "mini.example.com")?.address == mini.baseURL)
        #expect(s.server(named: "https://MINI.example.com/")?.address == mini.baseURL)
        #expect(s.server(named: "http://100.64.0.5:8080/")?.address == studio.baseURL)
        #expect(s.server(named: "nowhere") == nil && s.server(named: "") == nil)
    }

    @Test func removingTheActiveServerActivatesTheFirstThatRemains() throws {
        var s = AppSettings()
        let a = try s.addServer(mini, fileExists: { _ in false })
        let b = try s.addServer(studio, fileExists: { _ in false })
        #expect(s.removeServer(id: b.id) == b)
        #expect(s.activeServerID == a.id)
        s.activate(id: "not-in-the-list")
        #expect(s.activeServerID == a.id)
        s.removeServer(id: a.id)
        #expect(s.activeServer == nil && s.server == nil)
    }

    @Test func eachServerKeepsItsOwnSettings() throws {
        var s = AppSettings()
        try s.addServer(mini, fileExists: { _ in false })
        s.updateActiveServer {
            $0.previewHost = "100.64.0.9"; $0.terminalCommands[.codex] = "codex --yolo"
        }
        try s.addServer(studio, fileExists: { _ in false })
        #expect(s.activeServer?.previewHost == nil && s.activeServer?.terminalCommands[.codex] == "codex")
        #expect(s.server(at: mini)?.previewHost == "100.64.0.9" && s.server(at: mini)?.terminalCommands[.codex] == "codex --yolo")
    }

    @Test func aNamePicksOutOneServer() throws {
        var s = AppSettings()
        let a = try s.addServer(mini, name: "home", fileExists: { _ in false })
        let b = try s.addServer(studio, fileExists: { _ in false })
        #expect(throws: BuilderOSError.serverNameTaken("HOME")) { try s.rename(id: b.id, to: "HOME") }
        #expect(throws: BuilderOSError.serverNameTaken("home")) {
            try s.addServer(ServerAddress.parse("https://other.example.com"), name: "home", fileExists: { _ in false })
        }
        try s.rename(id: a.id, to: "  Mac mini  ")
        #expect(s.server(named: "mac mini")?.id == a.id)
        try s.rename(id: a.id, to: "")
        #expect(s.servers[0].name == "mini.example.com", "an empty name is the host again")
    }

    /// Unnamed, a server is called by its host as people read it, with a port that is not the default.
    @Test(arguments: [
        ("https://mini.example.com", "mini.example.com"), ("http://192.168.1.20:8080", "192.168.1.20:8080"),
        ("http://[fd00::20]:8080", "[fd00::20]:8080"), ("https://xn--bcher-kva.example", "bücher.example"),
    ])
    func theDefaultNameIsTheHost(address: String, name: String) throws {
        #expect(ServerProfile(address: try ServerAddress.parse(address).baseURL, historyFile: "h").name == name)
    }
}
