import Foundation

/// How a server of the list answers a light status request: what `builderos servers` prints for each
/// server. The request carries that server's own key, never another's.
public enum ServerReachability: Sendable, Equatable {
    case online(latencyMilliseconds: Double)
    /// No key in the keyring for it: only that server needs signing in again.
    case signInAgain
    case keyRejected
    case unreachable(BuilderOSError)

    /// A word for scripts (`--json`).
    public var code: String {
        switch self {
        case .online: return "online"
        case .signInAgain: return "sign-in-again"
        case .keyRejected: return "key-rejected"
        case .unreachable: return "unreachable"
        }
    }

    /// The dot a list shows for it, in the connection indicator's colours.
    public var indicator: ConnectionIndicator {
        switch self {
        case .online: return .connected
        case .signInAgain, .keyRejected: return .failed
        case .unreachable: return .disconnected
        }
    }

    public var title: String {
        switch self {
        case .online(let ms): return L("online, %@ ms", String(Int(ms.rounded())))
        case .signInAgain: return L("sign in again: no key in the keyring")
        case .keyRejected: return L("the API key was rejected")
        case .unreachable(let error): return L("unreachable: %@", error.userMessage)
        }
    }
}

public enum ServerProbe {
    /// Asks each server at once, each with its own key and a short timeout: a slow or dead server never holds up
    /// the others. The answers come in the list's order, once all are in (`builderos servers` prints one table).
    public static func check(_ servers: [ServerProfile], credentials: CredentialStore = CredentialStore(), timeout: Double = 5)
        async -> [ServerReachability]
    {
        var byID: [String: ServerReachability] = [:]
        for await (id, answer) in answers(servers, credentials: credentials, timeout: timeout) { byID[id] = answer }
        return servers.map { byID[$0.id] ?? .signInAgain }
    }

    /// Each server's answer as soon as it is in, with the server's id: what the switcher's and the tray's dots follow,
    /// so a server that takes its time holds up only its own dot. A server `routeExists` says this computer has no
    /// route to is asked nothing and answers as a session of it would be: offline. Ending the iteration (or its
    /// task) cancels the requests still out.
    public static func answers(
        _ servers: [ServerProfile], credentials: CredentialStore = CredentialStore(), timeout: Double = 5,
        routeExists: @escaping @Sendable (ServerAddress) async -> Bool = { _ in true }
    ) -> AsyncStream<(id: String, answer: ServerReachability)> {
        AsyncStream { continuation in
            let asking = Task {
                await withTaskGroup(of: (id: String, answer: ServerReachability).self) { group in
                    for profile in servers {
                        group.addTask {
                            if let address = profile.server, await !routeExists(address) {
                                return (profile.id, .unreachable(.networkUnreachable))
                            }
                            return (profile.id, await check(profile, credentials: credentials, timeout: timeout))
                        }
                    }
                    for await answer in group { continuation.yield(answer) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in asking.cancel() }
        }
    }

    static func check(_ profile: ServerProfile, credentials: CredentialStore, timeout: Double) async -> ServerReachability {
        guard let server = profile.server else { return .unreachable(.invalidServerAddress(.invalidHost)) }
        let key: String?
        do { key = try await credentials.lookup(for: server) } catch { return .unreachable(error) }
        guard let key else { return .signInAgain }
        do {
            let client = RESTClient(server: server, apiKey: key, configuration: profile.network).with(requestTimeout: timeout)
            let (_, latency) = try await client.measuredStatus(samples: 1)
            return .online(latencyMilliseconds: latency)
        } catch .unauthorized {
            return .keyRejected
        } catch {
            return .unreachable(error)
        }
    }
}
