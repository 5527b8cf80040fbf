import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The tray-style connection indicator: exports the StatusNotifierItem and its menu, registers them with every
/// StatusNotifierWatcher on the session bus (again whenever a watcher restarts), and knows whether a tray host
/// is there to show them. Fed with `TrayStatus` values; menu choices go back through `perform`.
@MainActor
final class TrayIndicator {
    static let watcherNames = ["org.kde.StatusNotifierWatcher", "org.freedesktop.StatusNotifierWatcher"]

    private let connection: OpaquePointer
    private let item: StatusNotifierItem
    private let menu: DBusMenu
    private var watches: [guint] = []
    private var subscriptions: [guint] = []
    /// Per watcher name: whether it reports a registered host (absent when the watcher is not running).
    private var hosts: [String: Bool] = [:]
    /// Watchers whose name watch has not reported yet, and running ones that have not answered yet: no verdict
    /// while either is non-empty (the two watches report in any order).
    private var unreported = Set(TrayIndicator.watcherNames)
    private var unanswered: Set<String> = []
    /// Whether any tray host shows our icon; nil until the first answer (or the absence of any watcher) is known.
    private(set) var hostAvailable: Bool?
    /// Called when `hostAvailable` changes.
    var onHostChange: (@MainActor (Bool) -> Void)?
    /// Whether the main window is on screen, asked each time the menu is built (the app knows; nothing is cached here).
    private let windowShown: @MainActor () -> Bool
    /// Every server with its state, for the menu's Servers section (asked each time the menu is built).
    private let servers: @MainActor () -> [ServerEntry]

    init?(
        connection: OpaquePointer?, status: TrayStatus, windowShown: @escaping @MainActor () -> Bool,
        servers: @escaping @MainActor () -> [ServerEntry],
        perform: @escaping @MainActor (TrayMenu.Action) -> Void, activate: @escaping @MainActor (String?) -> Void
    ) {
        guard let connection else { return nil }
        self.connection = connection
        self.windowShown = windowShown
        self.servers = servers
        do {
            item = try StatusNotifierItem(connection: connection, status: status, onActivate: activate)
            menu = try DBusMenu(
                connection: connection, menu: TrayMenu(status: status, windowShown: windowShown(), servers: servers()), perform: perform)
        } catch {
            FileHandle.standardError.write(Data("BuilderOS: the tray icon could not be exported: \(error.message)\n".utf8))
            return nil
        }
        for name in Self.watcherNames {
            watches.append(
                DBusPeer.watchName(
                    connection, name, appeared: { [weak self] _ in self?.watcherAppeared(name) },
                    vanished: { [weak self] in self?.watcherVanished(name) }))
            subscriptions.append(
                DBusPeer.subscribe(connection, sender: name, interface: name, signal: nil) { [weak self] signal, _ in
                    if signal == "StatusNotifierHostRegistered" || signal == "StatusNotifierHostUnregistered" { self?.queryHost(name) }
                })
        }
    }

    func stop() {
        watches.forEach(DBusPeer.unwatch)
        subscriptions.forEach { DBusPeer.unsubscribe(connection, $0) }
        (watches, subscriptions) = ([], [])
        item.unregister()
        menu.unregister()
    }

    func update(status: TrayStatus) {
        item.update(status)
        menu.update(TrayMenu(status: status, windowShown: windowShown(), servers: servers()))
    }

    /// The main window was shown, hidden or closed: Open/Hide in the menu follows.
    func windowVisibilityChanged() {
        menu.update(TrayMenu(status: item.status, windowShown: windowShown(), servers: servers()))
    }

    /// A server was added, switched to, forgotten, or its state changed: the Servers section follows.
    func serversChanged() { windowVisibilityChanged() }

    // MARK: Watchers

    private func watcherAppeared(_ name: String) {
        unreported.remove(name)
        unanswered.insert(name)
        Task { @MainActor in
            // The watcher takes our unique name; the item is at the spec's default path.
            let unique = String(cString: g_dbus_connection_get_unique_name(connection))
            let result = await DBusPeer.call(
                connection, destination: name, path: "/StatusNotifierWatcher", interface: name,
                method: "RegisterStatusNotifierItem", .tuple([.string(unique)]))
            if case .failure(let error) = result {
                FileHandle.standardError.write(Data("BuilderOS: \(name) refused the tray icon: \(error.message)\n".utf8))
            }
            queryHost(name)
        }
    }

    private func watcherVanished(_ name: String) {
        unreported.remove(name)
        unanswered.remove(name)
        hosts[name] = nil
        reviewHosts()
    }

    private func queryHost(_ name: String) {
        Task { @MainActor in
            let reply = await DBusPeer.call(
                connection, destination: name, path: "/StatusNotifierWatcher",
                interface: "org.freedesktop.DBus.Properties", method: "Get",
                .tuple([.string(name), .string("IsStatusNotifierHostRegistered")]))
            unanswered.remove(name)
            if case .success(let value) = reply { hosts[name] = value[0]?.boolValue ?? false }
            reviewHosts()
        }
    }

    private func reviewHosts() {
        if hosts.values.contains(true) { return setHostAvailable(true) }
        if unreported.isEmpty && unanswered.isEmpty { setHostAvailable(false) }
    }

    private func setHostAvailable(_ available: Bool) {
        guard hostAvailable != available else { return }
        hostAvailable = available
        onHostChange?(available)
    }
}
