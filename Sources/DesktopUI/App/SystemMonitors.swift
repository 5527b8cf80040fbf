import BuilderOSKit
import CGtk
import GtkKit

/// Feeds the desktop's own knowledge into the connection state machine: GNetworkMonitor (offline:
/// pause retries and say so; back: reconnect at once) and GPowerProfileMonitor (power saver:
/// poll and refresh less often).
@MainActor
final class SystemMonitors {
    private let network: OpaquePointer
    private var power: OpaquePointer?
    private weak var connection: ConnectionController?
    /// A server on this computer is reachable without any network.
    private let serverIsLocal: Bool
    private var handlers: [SignalConnection] = []

    init(connection: ConnectionController) {
        self.connection = connection
        serverIsLocal = connection.snapshot.server.isOnThisComputer
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
        if let power { g_object_unref(UnsafeMutableRawPointer(power)) }
        power = nil
    }

    private func update() {
        connection?.networkChanged(available: serverIsLocal || g_network_monitor_get_network_available(network) != 0)
        if let power { connection?.powerSaverChanged(enabled: g_power_profile_monitor_get_power_saver_enabled(power) != 0) }
    }
}
