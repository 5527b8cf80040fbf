/// What every list of servers shows for one: the header's switcher and the tray's Servers section read the same
/// value. A server with a session (the active one, or one switched away from) shows its connection; any other, the
/// last light status request's answer (`ServerProbe`), or nothing yet.
public struct ServerEntry: Sendable, Equatable, Identifiable {
    public let id: String
    public let name: String
    public let active: Bool
    /// nil until the server is known: no session, and no status request answered yet.
    public let indicator: ConnectionIndicator?
    public let stateText: String

    public init(profile: ServerProfile, active: Bool, snapshot: ConnectionSnapshot?, probe: ServerReachability?) {
        (id, name, self.active) = (profile.id, profile.name, active)
        if let snapshot {
            (indicator, stateText) = (snapshot.indicator, snapshot.stateText)
        } else if let probe {
            indicator = probe.indicator
            switch probe {
            case .online: stateText = L("Online")
            case .signInAgain: stateText = L("Sign in again")
            case .keyRejected: stateText = L("Key rejected")
            // No route to it: what a session of it would say.
            case .unreachable(.networkUnreachable): stateText = L("Offline")
            case .unreachable: stateText = L("Unreachable")
            }
        } else {
            (indicator, stateText) = (nil, L("Not checked yet"))
        }
    }

    /// Whether the servers without a session are asked how they are: not while the computer saves power (`snapshot`
    /// is the active server's connection, which knows). Offline is a matter of each server's route: the active
    /// server's says nothing of a server on the LAN.
    public static func pollsOthers(_ snapshot: ConnectionSnapshot?) -> Bool {
        !(snapshot?.powerSaver ?? false)
    }
}
