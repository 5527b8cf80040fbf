import Foundation

/// The rules of the server list, in one place: the same address is set up once, a name or an address
/// finds a server, the active one is always in the list, and each server gets a history file of its own.
extension AppSettings {
    /// The server `selector` names: its name (case-insensitively), or its address however it is written.
    public func server(named selector: String) -> ServerProfile? {
        let trimmed = selector.trimmingCharacters(in: .whitespaces)
        if let byName = servers.first(where: { $0.name.caseInsensitiveCompare(trimmed) == .orderedSame }) { return byName }
        guard let address = try? ServerAddress.parse(trimmed) else { return nil }
        return server(at: address)
    }

    /// The profile of this address, if it is set up.
    public func server(at address: ServerAddress) -> ServerProfile? { Self.server(at: address, in: servers) }

    /// The same for any list (the setup's, which refuses an address already set up before testing it).
    public static func server(at address: ServerAddress, in servers: [ServerProfile]) -> ServerProfile? {
        servers.first { $0.address == address.baseURL }
    }

    /// Adds a server and makes it the active one. The same address twice is refused: it already has a key,
    /// a history and settings of its own. `fileExists` tells which history files are on disk: a history this
    /// address kept when it was forgotten is its own again (`Account.forget` names it so); otherwise the first
    /// history is the first server's, also when it was made before any server (`builderos history import`).
    @discardableResult
    public mutating func addServer(
        _ address: ServerAddress, name: String = "", fileExists: (String) -> Bool = HistoryStore.fileExists
    ) throws(BuilderOSError) -> ServerProfile {
        if let existing = server(at: address) { throw .serverAlreadyAdded(name: existing.name) }
        let name = try validatedName(name, for: nil)
        let first = HistoryStore.firstFileName, own = HistoryStore.fileName(for: address)
        let file = fileExists(own) || servers.contains { $0.historyFile == first } ? own : first
        var profile = ServerProfile(address: address.baseURL, historyFile: file)
        profile.customName = name
        servers.append(profile)
        activeServerID = profile.id
        return profile
    }

    /// Renames a server; an empty name gives it its address's host again.
    public mutating func rename(id: String, to name: String) throws(BuilderOSError) {
        guard let index = servers.firstIndex(where: { $0.id == id }) else { return }
        servers[index].customName = try validatedName(name, for: id)
    }

    /// A name picks its server out (`--server NAME`): two servers never share one, nor one another's default.
    private func validatedName(_ name: String, for id: String?) throws(BuilderOSError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty, servers.contains(where: { $0.id != id && $0.name.caseInsensitiveCompare(trimmed) == .orderedSame }) {
            throw .serverNameTaken(trimmed)
        }
        return trimmed
    }

    /// Removes a server from the list; when it was the active one, the first that remains becomes active.
    @discardableResult
    public mutating func removeServer(id: String) -> ServerProfile? {
        guard let index = servers.firstIndex(where: { $0.id == id }) else { return nil }
        let removed = servers.remove(at: index)
        if activeServerID == id { activeServerID = servers.first?.id }
        return removed
    }

    /// Makes a server in the list the active one.
    public mutating func activate(id: String) {
        if servers.contains(where: { $0.id == id }) { activeServerID = id }
    }
}
