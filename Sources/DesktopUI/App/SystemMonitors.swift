import BuilderOSKit
import CGtk
import GtkKit

/// Feeds the desktop's own knowledge into the connection state machine: GNetworkMonitor (offline:
/// pause retries and say so; back: reconnect at once) and GPowerProfileMonitor (power saver:
/// poll and refresh less often). Offline means no route to the server (`ServerRoute`).
@MainActor
final class SystemMonitors {
    private let network: OpaquePointer = g_network_monitor_get_default()
    private var power: OpaquePointer?
    private weak var connection: ConnectionController?
    private let server: ServerAddress
    /// The reachability question under way, cancelled when the network changes again.
    private var reachCheck: UnsafeMutablePointer<GCancellable>?
    private var handlers: [SignalConnection] = []

    init(connection: ConnectionController) {
        self.connection = connection
        server = connection.snapshot.server
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
        let cancellable = g_cancellable_new()
        reachCheck = cancellable
        ServerRoute.check(server, cancellable: cancellable) { [weak self] reachable in
            guard let self, self.reachCheck == cancellable else { return }
            g_object_unref(cancellable)
            self.reachCheck = nil
            self.connection?.networkChanged(available: reachable)
        }
    }

    private func cancelReachCheck() {
        guard let reachCheck else { return }
        g_cancellable_cancel(reachCheck)
        g_object_unref(reachCheck)
        self.reachCheck = nil
    }
}
