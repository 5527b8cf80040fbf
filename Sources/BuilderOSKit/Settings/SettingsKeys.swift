import CGio

/// Typed reads and writes on one GSettings object: the app's (`SettingKey`) or a server's (`ServerSettingKey`).
/// Values outside a key's range are clamped: GSettings would refuse them.
class SettingsKeys<Key: RawRepresentable> where Key.RawValue == String {
    let settings: UnsafeMutablePointer<GSettings>?
    let schema: OpaquePointer?

    init(settings: UnsafeMutablePointer<GSettings>?, schema: OpaquePointer?) { (self.settings, self.schema) = (settings, schema) }

    func string(_ key: Key) -> String? {
        guard let settings, let value = g_settings_get_string(settings, key.rawValue) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    func nonEmpty(_ key: Key) -> String? { string(key).flatMap { $0.isEmpty ? nil : $0 } }
    func int(_ key: Key) -> Int { settings.map { Int(g_settings_get_int($0, key.rawValue)) } ?? 0 }
    func bool(_ key: Key) -> Bool { settings.map { g_settings_get_boolean($0, key.rawValue) != 0 } ?? false }

    func strings(_ key: Key) -> [String] {
        guard let settings, let list = g_settings_get_strv(settings, key.rawValue) else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var i = 0
        while let item = list[i] { result.append(String(cString: item)); i += 1 }
        return result
    }

    func setString(_ key: Key, _ value: String) -> Bool { g_settings_set_string(settings, key.rawValue, value) != 0 }
    func setBool(_ key: Key, _ value: Bool) -> Bool { g_settings_set_boolean(settings, key.rawValue, value ? 1 : 0) != 0 }

    func setStrings(_ key: Key, _ values: [String]) -> Bool {
        var pointers = values.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                g_settings_set_strv(settings, key.rawValue, $0) != 0
            }
        }
    }

    func setInt(_ key: Key, _ value: Int) -> Bool {
        let (low, high) = range(of: key)
        return g_settings_set_int(settings, key.rawValue, Int32(clamping: min(max(value, low), high))) != 0
    }

    /// Makes the writes as one change: none when a key is locked, none when GSettings refuses a value.
    func apply(_ writes: Writes<Key>) throws(BuilderOSError) {
        guard let settings, !writes.list.isEmpty else { return }
        if let locked = writes.list.first(where: { g_settings_is_writable(settings, $0.0.rawValue) == 0 }) {
            throw .other(detail: L("The setting “%@” is locked by the administrator and cannot be changed.", locked.0.rawValue))
        }
        g_settings_delay(settings)
        if let refused = writes.list.first(where: { !$0.1() }) {
            g_settings_revert(settings)
            throw .other(detail: L("The setting “%@” could not be saved.", refused.0.rawValue))
        }
        g_settings_apply(settings)
    }

    /// The key's `<range>`: GSettings describes it as `('range', <(min, max)>)`.
    private func range(of key: Key) -> (Int, Int) {
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

/// The keys a save changes, each with its write.
struct Writes<Key> {
    private(set) var list: [(Key, () -> Bool)] = []

    mutating func put(_ key: Key, _ changed: Bool, _ write: @escaping () -> Bool) { if changed { list.append((key, write)) } }
}
