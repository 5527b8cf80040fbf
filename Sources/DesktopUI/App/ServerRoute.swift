import BuilderOSKit
import CGtk
import GtkKit

/// Whether this computer has a route to a server, as GIO knows it. GIO's "network available" means a default route;
/// a server on a network this computer is on — a LAN or a VPN without a gateway — is reachable without one, so then
/// the monitor is asked about the server's own address (`g_network_monitor_can_reach_async`: the routes it knows,
/// and a name resolved). A server on this computer needs no network at all.
@MainActor
enum ServerRoute {
    /// Answers at once when it can, else once GIO has; never when `cancellable` is cancelled first.
    static func check(
        _ server: ServerAddress, cancellable: UnsafeMutablePointer<GCancellable>? = nil, _ answer: @escaping @MainActor (Bool) -> Void
    ) {
        let network = g_network_monitor_get_default()
        if server.isOnThisComputer || g_network_monitor_get_network_available(network) != 0 { return answer(true) }
        guard let address = g_network_address_parse_uri(server.baseURL, server.scheme == .https ? 443 : 80, nil) else {
            return answer(false)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(address)) }
        if let cancellable { g_object_ref(cancellable) }
        AsyncCall.start({ g_network_monitor_can_reach_async(network, address, cancellable, $0, $1) }) { result in
            defer { if let cancellable { g_object_unref(cancellable) } }
            var error: UnsafeMutablePointer<GError>?
            let reachable = g_network_monitor_can_reach_finish(network, result, &error) != 0
            if let error { g_error_free(error) }
            if let cancellable, g_cancellable_is_cancelled(cancellable) != 0 { return }
            answer(reachable)
        }
    }

    static func exists(to server: ServerAddress) async -> Bool {
        await withCheckedContinuation { done in check(server) { done.resume(returning: $0) } }
    }
}
