import BuilderOSKit
import CGtk
import GtkKit

/// Feeds the desktop's own knowledge into the connection state machine: GNetworkMonitor (offline:
/// pause retries and say so; back: reconnect at once) and GPowerProfileMonitor (power saver:
/// poll and refresh less often).
///
/// GIO's "network available" means a default route. A server on a network this computer is on — a LAN
/// or a VPN without a gateway — is reachable without one, so then the monitor is asked about the
/// server's own address (`g_network_monitor_can_reach_async`: the routes it knows, and a name resolved).
@MainActor
final class SystemMonitors {
    private let network: OpaquePointer
    private var power: OpaquePointer?
    private weak var connection: ConnectionController?
    private let server: ServerAddress
    /// The reachability question under way, cancelled when the network changes again.
    private var reachCheck: UnsafeMutablePointer<GCancellable>?
    private var handlers: [SignalConnection] = []

    init(connection: ConnectionController) {
        self.connection = connection
        server = connection.snapshot.server
        network = g_network_monitor_get_default()
        power = g_power_profile_monitor_dup_default()
        // "network-changed" carries a gboolean (typed trampoline); the monitors are read back, which say the same.
        handlers.append(Signals.connect(UnsafeMutableRawPointer(network), "network-changed", withBool: { [weak self] _ in self?.update() }))
        if let power {
            handlers.append(
                Signals.connect(
                    UnsafeMutableRawPointer(power), "notify::power-saver-enabled",
                    withArgument: { [weak self] _ in self?.update() }))
        }
        update()
    }

    /// Disconnects from the monitors and releases the power monitor (a new sign-in makes new monitors: without
    /// this, every sign-in left two handlers and a monitor reference behind).
    func stop() {
        handlers.forEach { $0.disconnect() }
        handlers = []
        cancelReachCheck()
        if let power { g_object_unref(UnsafeMutableRawPointer(power)) }
        power = nil
    }

    private func update() {
        if let power { connection?.powerSaverChanged(enabled: g_power_profile_monitor_get_power_saver_enabled(power) != 0) }
        cancelReachCheck()
        // A server on this computer is reachable without any network.
        if server.isOnThisComputer || g_network_monitor_get_network_available(network) != 0 {
            connection?.networkChanged(available: true)
        } else {
            askWhetherServerIsReachable()
        }
    }

    private func askWhetherServerIsReachable() {
        guard let address = g_network_address_parse_uri(server.baseURL, server.scheme == .https ? 443 : 80, nil) else {
            connection?.networkChanged(available: false)
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(address)) }
        let cancellable = g_cancellable_new()
        reachCheck = cancellable
        let network = network
        AsyncCall.start({ g_network_monitor_can_reach_async(network, address, cancellable, $0, $1) }) { [weak self] result in
            defer { g_object_unref(cancellable) }
            var error: UnsafeMutablePointer<GError>?
            let reachable = g_network_monitor_can_reach_finish(network, result, &error) != 0
            if let error { g_error_free(error) }
            guard let self, self.reachCheck == cancellable else { return }
            self.reachCheck = nil
            self.connection?.networkChanged(available: reachable)
        }
    }

    private func cancelReachCheck() {
        guard let reachCheck else { return }
        g_cancellable_cancel(reachCheck)
        self.reachCheck = nil
    }
}
