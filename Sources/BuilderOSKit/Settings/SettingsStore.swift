import CGio
import Foundation

/// Reads and writes `AppSettings` through GSettings (schema `app.builderos.Desktop`, see `data/`).
/// The backend is GLib's choice: dconf on a desktop, GLib's keyfile where dconf is not installed
/// (`~/.config/glib-2.0/settings/keyfile`; the tests choose it with `GSETTINGS_BACKEND=keyfile`).
///
/// `@unchecked Sendable`: GSettings serialises reads and writes in its backend. Change signals (`onChange`) arrive
/// on the main context of the thread that made the store, so the app makes the store it listens to on the main thread.
public final class SettingsStore: @unchecked Sendable {
    private let settings: UnsafeMutablePointer<GSettings>?

    /// Looked up once per process: the schema is immutable.
    nonisolated(unsafe) private static let schema: OpaquePointer? = SettingsSchemaLocator.locate()

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
        settings = Self.schema.map { g_settings_new_full($0, backend, nil) }
        if settings != nil { legacy.importOnce(into: self) }
    }

    deinit { if let settings { g_object_unref(UnsafeMutableRawPointer(settings)) } }

    /// False when the schema is installed nowhere we look: saving then fails with an explanation.
    public var isAvailable: Bool { settings != nil }

    /// Whether any server has been saved (the wizard checks that an aborted setup saved nothing).
    public var hasSavedServer: Bool { !(string(.serverURL) ?? "").isEmpty }

    /// The saved settings; keys never set read as the schema's defaults, and a missing device id is made afresh
    /// (saved with the next `save`).
    public func load() -> AppSettings {
        guard settings != nil else { return AppSettings() }
        var s = AppSettings(
            serverURL: nonEmpty(.serverURL), deviceID: nonEmpty(.deviceID) ?? AppSettings.newDeviceID(),
            appearance: Appearance(rawValue: string(.appearance) ?? "") ?? .automatic)
        s.windowWidth = int(.windowWidth)
        s.windowHeight = int(.windowHeight)
        s.page = string(.page) ?? s.page
        s.autoRefreshSeconds = int(.autoRefreshSeconds)
        s.notifications.replies = bool(.notifyReplies)
        s.notifications.connection = bool(.notifyConnection)
        s.notifications.sleep = bool(.notifySleep)
        s.wakeMAC = nonEmpty(.wakeMAC)
        s.wakeBroadcast = nonEmpty(.wakeBroadcast)
        s.previewHost = nonEmpty(.previewHost)
        for profile in TerminalProfile.allCases { s.terminalCommands[profile] = string(.terminalCommand(profile)) ?? profile.defaultCommand }
        s.keepRunningInBackground = bool(.keepRunningInBackground)
        return s
    }

    /// Writes what changed, all at once, and waits until the backend has it (the CLI exits right after).
    public func save(_ new: AppSettings) throws(BuilderOSError) {
        guard let settings else {
            throw .other(
                detail: String(
                    format: L(
                        "The settings cannot be saved: BuilderOS Desktop is not installed completely (its settings schema %@ is missing). Reinstall it."
                    ), SettingsSchemaLocator.schemaID))
        }
        let old = load()
        var writes: [(SettingKey, () -> Bool)] = []
        func put(_ key: SettingKey, _ changed: Bool, _ write: @escaping () -> Bool) { if changed { writes.append((key, write)) } }
        put(.serverURL, new.serverURL != old.serverURL) { self.setString(.serverURL, new.serverURL ?? "") }
        put(.deviceID, new.deviceID != old.deviceID || nonEmpty(.deviceID) == nil) { self.setString(.deviceID, new.deviceID) }
        put(.appearance, new.appearance != old.appearance) { self.setString(.appearance, new.appearance.rawValue) }
        put(.windowWidth, new.windowWidth != old.windowWidth) { self.setInt(.windowWidth, new.windowWidth) }
        put(.windowHeight, new.windowHeight != old.windowHeight) { self.setInt(.windowHeight, new.windowHeight) }
        put(.page, new.page != old.page) { self.setString(.page, new.page) }
        put(.autoRefreshSeconds, new.autoRefreshSeconds != old.autoRefreshSeconds) { self.setInt(.autoRefreshSeconds, new.autoRefreshSeconds) }
        put(.notifyReplies, new.notifications.replies != old.notifications.replies) { self.setBool(.notifyReplies, new.notifications.replies) }
        put(.notifyConnection, new.notifications.connection != old.notifications.connection) {
            self.setBool(.notifyConnection, new.notifications.connection)
        }
        put(.notifySleep, new.notifications.sleep != old.notifications.sleep) { self.setBool(.notifySleep, new.notifications.sleep) }
        put(.wakeMAC, new.wakeMAC != old.wakeMAC) { self.setString(.wakeMAC, new.wakeMAC ?? "") }
        put(.wakeBroadcast, new.wakeBroadcast != old.wakeBroadcast) { self.setString(.wakeBroadcast, new.wakeBroadcast ?? "") }
        for profile in TerminalProfile.allCases where new.terminalCommands[profile] != old.terminalCommands[profile] {
            put(.terminalCommand(profile), true) { self.setString(.terminalCommand(profile), new.terminalCommands[profile] ?? "") }
        }
        put(.previewHost, new.previewHost != old.previewHost) { self.setString(.previewHost, new.previewHost ?? "") }
        put(.keepRunningInBackground, new.keepRunningInBackground != old.keepRunningInBackground) {
            self.setBool(.keepRunningInBackground, new.keepRunningInBackground)
        }
        guard !writes.isEmpty else { return }
        if let locked = writes.first(where: { g_settings_is_writable(settings, $0.0.rawValue) == 0 }) {
            throw .other(detail: String(format: L("The setting “%@” is locked by the administrator and cannot be changed."), locked.0.rawValue))
        }
        g_settings_delay(settings)
        // A write GSettings refuses (a value outside the schema) is an error, and nothing of this save is kept.
        if let refused = writes.first(where: { !$0.1() }) {
            g_settings_revert(settings)
            throw .other(detail: String(format: L("The setting “%@” could not be saved."), refused.0.rawValue))
        }
        g_settings_apply(settings)
        g_settings_sync()
    }

    /// Calls `handler` whenever `key` changes, here or outside the app (`gsettings set`, dconf Editor). GSettings
    /// delivers the signal on the main context of the thread that made this store: make it on the main thread.
    public func onChange(of key: SettingKey, _ handler: @escaping @MainActor () -> Void) {
        guard let settings else { return }
        let box = Unmanaged.passRetained(ChangeHandler(handler)).toOpaque()
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, _, box in
            let change = Unmanaged<ChangeHandler>.fromOpaque(box!).takeUnretainedValue()
            MainActor.assumeIsolated { change.handler() }
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(settings), "changed::" + key.rawValue, unsafeBitCast(callback, to: GCallback.self), box,
            { box, _ in Unmanaged<ChangeHandler>.fromOpaque(box!).release() }, GConnectFlags(0))
        // GSettings only reports changes to keys read since a handler was connected.
        if let value = g_settings_get_value(settings, key.rawValue) { g_variant_unref(value) }
    }

    /// Touched only on the main thread (see `onChange`).
    private final class ChangeHandler: @unchecked Sendable {
        let handler: @MainActor () -> Void
        init(_ handler: @escaping @MainActor () -> Void) { self.handler = handler }
    }

    // MARK: Typed access (values outside a key's range are clamped: GSettings refuses them)

    private func string(_ key: SettingKey) -> String? {
        guard let settings, let value = g_settings_get_string(settings, key.rawValue) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    private func nonEmpty(_ key: SettingKey) -> String? { string(key).flatMap { $0.isEmpty ? nil : $0 } }
    private func int(_ key: SettingKey) -> Int { settings.map { Int(g_settings_get_int($0, key.rawValue)) } ?? 0 }
    private func bool(_ key: SettingKey) -> Bool { settings.map { g_settings_get_boolean($0, key.rawValue) != 0 } ?? false }
    private func setString(_ key: SettingKey, _ value: String) -> Bool { g_settings_set_string(settings, key.rawValue, value) != 0 }
    private func setBool(_ key: SettingKey, _ value: Bool) -> Bool { g_settings_set_boolean(settings, key.rawValue, value ? 1 : 0) != 0 }

    private func setInt(_ key: SettingKey, _ value: Int) -> Bool {
        let (low, high) = Self.range(of: key)
        return g_settings_set_int(settings, key.rawValue, Int32(clamping: min(max(value, low), high))) != 0
    }

    /// The key's `<range>`: GSettings describes it as `('range', <(min, max)>)`.
    private static func range(of key: SettingKey) -> (Int, Int) {
        let unbounded = (Int(Int32.min), Int(Int32.max))
        guard let schema, let schemaKey = g_settings_schema_get_key(schema, key.rawValue) else { return unbounded }
        defer { g_settings_schema_key_unref(schemaKey) }
        guard let range = g_settings_schema_key_get_range(schemaKey) else { return unbounded }
        defer { g_variant_unref(range) }
        let child = { (v: OpaquePointer, i: Int) -> OpaquePointer in g_variant_get_child_value(v, gsize(i)) }
        let kind = child(range, 0), boxed = child(range, 1)
        defer { g_variant_unref(kind); g_variant_unref(boxed) }
        guard String(cString: g_variant_get_string(kind, nil)) == "range", let bounds = g_variant_get_variant(boxed) else { return unbounded }
        defer { g_variant_unref(bounds) }
        let low = child(bounds, 0), high = child(bounds, 1)
        defer { g_variant_unref(low); g_variant_unref(high) }
        return (Int(g_variant_get_int32(low)), Int(g_variant_get_int32(high)))
    }
}
