import CGio
import Foundation
import Synchronization

/// Reads and writes `AppSettings` through GSettings (schema `app.builderos.Desktop`, see `data/`).
/// The backend is GLib's choice: dconf on a desktop, GLib's keyfile where dconf is not installed
/// (`~/.config/glib-2.0/settings/keyfile`; the tests choose it with `GSETTINGS_BACKEND=keyfile`).
///
/// `@unchecked Sendable`: GSettings serialises reads and writes in its backend. Change signals (`onChange`) arrive
/// on the main context of the thread that made the store, so the app makes the store it listens to on the main thread.
public final class SettingsStore: @unchecked Sendable {
    private let settings: UnsafeMutablePointer<GSettings>?
    /// The keyfile backend of the tests and the CLI (held for the servers' settings), or nil for GLib's default.
    private let backend: UnsafeMutablePointer<GSettingsBackend>?

    /// Looked up once per process: the schemas are immutable.
    nonisolated(unsafe) private static let schema: OpaquePointer? = SettingsSchemaLocator.locate()
    nonisolated(unsafe) private static let serverSchema: OpaquePointer? = SettingsSchemaLocator.locate(SettingsSchemaLocator.serverSchemaID)

    /// The settings in GLib's default backend.
    public convenience init() { self.init(backend: nil, legacy: LegacySettingsFile()) }

    /// The settings in a keyfile of their own, with the legacy JSON looked for under `configHome` (tests).
    public convenience init(keyfile: URL, configHome: URL) {
        GIODefaults.prepare()  // before the backend, which makes a file
        let backend = g_keyfile_settings_backend_new(keyfile.path, "/", nil)
        self.init(backend: backend, legacy: LegacySettingsFile(configHome: configHome.path))
        if let backend { g_object_unref(backend) }
    }

    /// The settings for a process that reads them once and exits (the CLI). GLib's keyfile backend
    /// watches its file (inotify) for as long as it lives, GLib keeps its default backend until the
    /// process ends, and a process that exits holding an inotify watch waits for the kernel to retire
    /// it (an SRCU grace period), milliseconds added to every command's exit. So where the keyfile backend is the one asked
    /// for (`GSETTINGS_BACKEND=keyfile`), the store gets a keyfile backend of its own on the file GLib's
    /// would use, and the watch ends with the store. dconf, GLib's usual choice, watches nothing.
    public static func forOneRead() -> SettingsStore {
        guard let chosen = getenv("GSETTINGS_BACKEND"), String(cString: chosen) == "keyfile" else { return SettingsStore() }
        let configHome = URL(fileURLWithPath: String(cString: g_get_user_config_dir()))
        return SettingsStore(keyfile: configHome.appendingPathComponent("glib-2.0/settings/keyfile"), configHome: configHome)
    }

    private init(backend: UnsafeMutablePointer<GSettingsBackend>?, legacy: LegacySettingsFile) {
        GIODefaults.prepare()
        self.backend = backend.map { g_object_ref($0).assumingMemoryBound(to: GSettingsBackend.self) }
        settings = Self.schema.map { g_settings_new_full($0, backend, nil) }
        Self.forgetReadingOnChange(of: settings, in: self)
        if settings != nil {
            legacy.importOnce(into: self)
            upgradeSingleServerProfile()
        }
    }

    deinit {
        if let settings { g_object_unref(UnsafeMutableRawPointer(settings)) }
        if let backend { g_object_unref(UnsafeMutableRawPointer(backend)) }
    }

    /// False when the schema is installed nowhere we look: saving then fails with an explanation.
    public var isAvailable: Bool { settings != nil && Self.serverSchema != nil }

    /// Whether any server has been saved (the wizard checks that an aborted setup saved nothing).
    public var hasSavedServer: Bool { !main.strings(.servers).isEmpty }

    /// The saved settings; keys never set read as the schema's defaults, and a missing device id is made afresh
    /// (saved with the next `save`). A server whose settings lost their address (edited by hand) is left out.
    public func load() -> AppSettings {
        guard settings != nil else { return AppSettings() }
        let (kept, generation) = reading.withLock { ($0.settings, $0.generation) }
        if let kept { return kept }
        let s = read()
        reading.withLock { if $0.generation == generation { $0.settings = s } }
        return s
    }

    /// The last `load`, kept until a key changes: the app reads the settings a dozen times while it starts, each
    /// time one GSettings read per key of the app and of every server. Forgotten by `save` at once, and by
    /// GSettings' change signal for a write elsewhere (another process, `gsettings set`); a load that raced a
    /// change keeps nothing (the generation moved on).
    private let reading = Mutex<(settings: AppSettings?, generation: Int)>((nil, 0))

    private func forgetReading() { reading.withLock { $0 = (nil, $0.generation &+ 1) } }

    private func read() -> AppSettings {
        var s = AppSettings(
            deviceID: main.nonEmpty(.deviceID) ?? AppSettings.newDeviceID(),
            appearance: Appearance(rawValue: main.string(.appearance) ?? "") ?? .automatic)
        s.windowWidth = main.int(.windowWidth)
        s.windowHeight = main.int(.windowHeight)
        s.page = main.string(.page) ?? s.page
        s.autoRefreshSeconds = main.int(.autoRefreshSeconds)
        s.notifications.replies = main.bool(.notifyReplies)
        s.notifications.connection = main.bool(.notifyConnection)
        s.notifications.sleep = main.bool(.notifySleep)
        s.keepRunningInBackground = main.bool(.keepRunningInBackground)
        s.servers = main.strings(.servers).compactMap(loadServer)
        let active = main.nonEmpty(.activeServer)
        s.activeServerID = s.servers.contains { $0.id == active } ? active : s.servers.first?.id
        return s
    }

    private func loadServer(id: String) -> ServerProfile? {
        guard let server = serverKeys(id) else { return nil }
        guard let address = server.nonEmpty(.address) else { return nil }
        var p = ServerProfile(
            id: id, address: address, customName: server.string(.name) ?? "", historyFile: server.nonEmpty(.historyFile) ?? "")
        if p.historyFile.isEmpty, let parsed = p.server { p.historyFile = HistoryStore.fileName(for: parsed) }
        p.wakeMAC = server.nonEmpty(.wakeMAC)
        p.wakeBroadcast = server.nonEmpty(.wakeBroadcast)
        p.previewHost = server.nonEmpty(.previewHost)
        p.caFile = server.nonEmpty(.caFile)
        for profile in TerminalProfile.allCases {
            p.terminalCommands[profile] = server.string(.terminalCommand(profile)) ?? profile.defaultCommand
        }
        return p
    }

    /// Writes what changed, all at once, and waits until the backend has it (the CLI exits right after). A new
    /// server's settings are written before the list names it; a removed server's are cleared after.
    public func save(_ new: AppSettings) throws(BuilderOSError) {
        // Also after a save that failed half-way: the keys written so far are written.
        defer { forgetReading() }
        guard settings != nil, Self.serverSchema != nil else {
            throw .other(
                detail: String(
                    format: L(
                        "The settings cannot be saved: BuilderOS Desktop is not installed completely (its settings schema %@ is missing). Reinstall it."
                    ), SettingsSchemaLocator.schemaID))
        }
        let old = read()  // what is written now, not a kept reading a write elsewhere may have outdated
        for profile in new.servers {
            guard let keys = serverKeys(profile.id) else { continue }
            try keys.apply(Self.writes(profile, old: old.servers.first { $0.id == profile.id }, to: keys))
        }
        var writes = Writes<SettingKey>()
        let m = main
        writes.put(.servers, new.servers.map(\.id) != old.servers.map(\.id) || new.servers.isEmpty != m.strings(.servers).isEmpty) {
            m.setStrings(.servers, new.servers.map(\.id))
        }
        writes.put(.activeServer, new.activeServerID != m.nonEmpty(.activeServer)) { m.setString(.activeServer, new.activeServerID ?? "") }
        writes.put(.deviceID, new.deviceID != old.deviceID || m.nonEmpty(.deviceID) == nil) { m.setString(.deviceID, new.deviceID) }
        writes.put(.appearance, new.appearance != old.appearance) { m.setString(.appearance, new.appearance.rawValue) }
        writes.put(.windowWidth, new.windowWidth != old.windowWidth) { m.setInt(.windowWidth, new.windowWidth) }
        writes.put(.windowHeight, new.windowHeight != old.windowHeight) { m.setInt(.windowHeight, new.windowHeight) }
        writes.put(.page, new.page != old.page) { m.setString(.page, new.page) }
        writes.put(.autoRefreshSeconds, new.autoRefreshSeconds != old.autoRefreshSeconds) { m.setInt(.autoRefreshSeconds, new.autoRefreshSeconds) }
        writes.put(.notifyReplies, new.notifications.replies != old.notifications.replies) { m.setBool(.notifyReplies, new.notifications.replies) }
        writes.put(.notifyConnection, new.notifications.connection != old.notifications.connection) {
            m.setBool(.notifyConnection, new.notifications.connection)
        }
        writes.put(.notifySleep, new.notifications.sleep != old.notifications.sleep) { m.setBool(.notifySleep, new.notifications.sleep) }
        writes.put(.keepRunningInBackground, new.keepRunningInBackground != old.keepRunningInBackground) {
            m.setBool(.keepRunningInBackground, new.keepRunningInBackground)
        }
        try m.apply(writes)
        for gone in old.servers where !new.servers.contains(where: { $0.id == gone.id }) {
            serverKeys(gone.id)?.resetAll()
            _ = serverKeysCache.withLock { $0.removeValue(forKey: gone.id) }
        }
        g_settings_sync()
    }

    /// A new server's settings are compared with the schema's defaults: only what differs is written.
    private static func writes(_ p: ServerProfile, old: ServerProfile?, to k: ServerKeys) -> Writes<ServerSettingKey> {
        let old = old ?? ServerProfile(id: p.id, address: "", historyFile: "")
        var w = Writes<ServerSettingKey>()
        w.put(.address, p.address != old.address) { k.setString(.address, p.address) }
        w.put(.name, p.customName != old.customName) { k.setString(.name, p.customName) }
        w.put(.historyFile, p.historyFile != old.historyFile) { k.setString(.historyFile, p.historyFile) }
        w.put(.wakeMAC, p.wakeMAC != old.wakeMAC) { k.setString(.wakeMAC, p.wakeMAC ?? "") }
        w.put(.wakeBroadcast, p.wakeBroadcast != old.wakeBroadcast) { k.setString(.wakeBroadcast, p.wakeBroadcast ?? "") }
        w.put(.previewHost, p.previewHost != old.previewHost) { k.setString(.previewHost, p.previewHost ?? "") }
        w.put(.caFile, p.caFile != old.caFile) { k.setString(.caFile, p.caFile ?? "") }
        for profile in TerminalProfile.allCases where p.terminalCommands[profile] != old.terminalCommands[profile] {
            w.put(.terminalCommand(profile), true) { k.setString(.terminalCommand(profile), p.terminalCommands[profile] ?? "") }
        }
        return w
    }

    /// A profile made by a release before several servers (one server, its settings beside the app's) becomes the
    /// first server: same address (so the same keyring item), same history file, its settings moved. The old keys
    /// are cleared only once the server is saved, so an interrupted upgrade runs again and a finished one never does.
    private func upgradeSingleServerProfile() {
        guard settings != nil, let url = main.nonEmpty(.serverURL) else { return }
        var s = load()
        if let address = try? ServerAddress.parse(url), s.server(at: address) == nil {
            let first = HistoryStore.firstFileName
            let file = s.servers.contains { $0.historyFile == first } ? HistoryStore.fileName(for: address) : first
            var p = ServerProfile(address: address.baseURL, historyFile: file)
            p.wakeMAC = main.nonEmpty(.wakeMAC)
            p.wakeBroadcast = main.nonEmpty(.wakeBroadcast)
            p.previewHost = main.nonEmpty(.previewHost)
            let legacyCommands: [TerminalProfile: SettingKey] = [
                .shell: .terminalShellCommand, .jarvis: .terminalJarvisCommand, .codex: .terminalCodexCommand,
            ]
            for (profile, key) in legacyCommands { p.terminalCommands[profile] = main.string(key) ?? profile.defaultCommand }
            s.servers.append(p)
            if s.activeServer == nil || s.servers.count == 1 { s.activeServerID = p.id }
            guard (try? save(s)) != nil else { return }
        }
        for key in SettingKey.movedToServers { g_settings_reset(settings, key.rawValue) }
        g_settings_apply(settings)  // a save leaves the object in delay-apply mode
        g_settings_sync()
        forgetReading()
    }

    /// One server's settings, changed and saved at once (nothing when the address is not set up).
    public func updateServer(at server: ServerAddress, _ change: (inout ServerProfile) -> Void) throws(BuilderOSError) {
        var s = load()
        guard let index = s.servers.firstIndex(where: { $0.address == server.baseURL }) else { return }
        change(&s.servers[index])
        try save(s)
    }

    /// Calls `handler` whenever `key` changes, here or outside the app (`gsettings set`, dconf Editor). GSettings
    /// delivers the signal on the main context of the thread that made this store: make it on the main thread.
    public func onChange(of key: SettingKey, _ handler: @escaping @MainActor () -> Void) {
        Self.connect(settings, key.rawValue, ChangeHandler(handler))
    }

    /// The same for one server's own setting.
    public func onChange(ofServer id: String, _ key: ServerSettingKey, _ handler: @escaping @MainActor () -> Void) {
        guard let server = serverKeys(id) else { return }
        // The handler keeps the server's settings object, whose signal it is.
        Self.connect(server.settings, key.rawValue, ChangeHandler(handler, keeping: server))
    }

    private static func connect(_ settings: UnsafeMutablePointer<GSettings>?, _ key: String, _ change: ChangeHandler) {
        guard let settings else { return }
        connect(settings, "changed::" + key, keeping: change) { _, _, box in
            let change = Unmanaged<ChangeHandler>.fromOpaque(box!).takeUnretainedValue()
            // GLib hands a change to the writer's thread when that thread can take the main context for a moment
            // (`g_main_context_invoke` from a thread without a context of its own): a write off the main thread
            // (`Account` runs on Swift's pool) may arrive here off it.
            if Thread.isMainThread {
                MainActor.assumeIsolated { change.handler() }
            } else {
                DispatchQueue.main.async { change.handler() }
            }
        }
        // GSettings only reports changes to keys read since a handler was connected.
        if let value = g_settings_get_value(settings, key) { g_variant_unref(value) }
    }

    /// Forgets the kept reading whenever GSettings reports a change of any key of `settings`. Connected when the
    /// object is made, before any `onChange` handler: those run after it, and their `load` reads afresh.
    private static func forgetReadingOnChange(of settings: UnsafeMutablePointer<GSettings>?, in store: SettingsStore) {
        guard let settings else { return }
        connect(settings, "changed", keeping: WeakStore(store)) { _, _, box in
            Unmanaged<WeakStore>.fromOpaque(box!).takeUnretainedValue().store?.forgetReading()
        }
    }

    /// Connects `callback` to `signal` of `settings`; its last argument is `box`, kept as long as the connection.
    private static func connect(
        _ settings: UnsafeMutablePointer<GSettings>, _ signal: String, keeping box: AnyObject,
        _ callback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void
    ) {
        g_signal_connect_data(
            UnsafeMutableRawPointer(settings), signal, unsafeBitCast(callback, to: GCallback.self), Unmanaged.passRetained(box).toOpaque(),
            { box, _ in Unmanaged<AnyObject>.fromOpaque(box!).release() }, GConnectFlags(0))
    }

    /// A server's settings object may outlive the store (an `onChange` handler keeps it).
    private final class WeakStore: @unchecked Sendable {
        weak var store: SettingsStore?
        init(_ store: SettingsStore) { self.store = store }
    }

    /// Touched only on the main thread (see `onChange`).
    private final class ChangeHandler: @unchecked Sendable {
        let handler: @MainActor () -> Void
        let kept: AnyObject?
        init(_ handler: @escaping @MainActor () -> Void, keeping kept: AnyObject? = nil) { (self.handler, self.kept) = (handler, kept) }
    }

    private var main: SettingsKeys<SettingKey> { SettingsKeys(settings: settings, schema: Self.schema) }

    /// Each server's settings object, made once: a GSettings object costs far more to make than to read.
    private let serverKeysCache = Mutex<[String: ServerKeys]>([:])

    private func serverKeys(_ id: String) -> ServerKeys? {
        if let cached = serverKeysCache.withLock({ $0[id] }) { return cached }
        guard let made = ServerKeys(self, id: id) else { return nil }
        return serverKeysCache.withLock { cache in
            if let other = cache[id] { return other }
            cache[id] = made
            return made
        }
    }

    /// One server's settings object at `servers/ID/`, released with this value.
    private final class ServerKeys: SettingsKeys<ServerSettingKey>, @unchecked Sendable {
        init?(_ store: SettingsStore, id: String) {
            guard let schema = SettingsStore.serverSchema, SettingsStore.isValidID(id) else { return nil }
            super.init(settings: g_settings_new_full(schema, store.backend, "/app/builderos/Desktop/servers/\(id)/"), schema: schema)
            SettingsStore.forgetReadingOnChange(of: settings, in: store)
        }
        deinit { if let settings { g_object_unref(UnsafeMutableRawPointer(settings)) } }

        /// Clears every key: dconf then holds nothing of a forgotten server.
        func resetAll() { for key in ServerSettingKey.allCases { g_settings_reset(settings, key.rawValue) } }
    }

    /// A settings path part is letters, digits and dashes (dconf's rule); anything else came from a hand edit.
    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            }
    }
}
