import CSecret
import Foundation

/// The API key's only home: the Secret Service, through libsecret. Schema
/// `app.builderos.Desktop.ApiKey` with attributes `server` (the normalised base URL) and
/// `version` (the schema version). Every call runs off the calling thread; there is no fallback
/// to any other storage, ever.
public struct CredentialStore: Sendable {
    public static let schemaName = BuilderOSKit.applicationID + ".ApiKey"
    public static let schemaVersion = "1"

    public init() {}

    public func store(key: String, for server: ServerAddress) async throws(BuilderOSError) {
        let label = L("BuilderOS API key for %@", server.baseURL)
        try await offThread {
            var error: UnsafeMutablePointer<GError>?
            let attributes = Self.attributes(server)
            defer { g_hash_table_unref(attributes) }
            let ok = secret_password_storev_sync(Self.schema, attributes, "default", label, key, nil, &error)
            return ok == 0 ? .failure(SecretErrorMapping.map(error)) : .success(())
        }
    }

    /// The stored key, or nil when none is stored for this server. `whenConnected` runs on the
    /// lookup's thread once the session bus connection (and GDBus's worker thread) exists, before
    /// the Secret Service is asked (see `KeyLookup`, which also starts a lookup before its server is handed over).
    public func lookup(for server: ServerAddress, whenConnected: (@Sendable () -> Void)? = nil) async throws(BuilderOSError) -> String? {
        if let whenConnected { return try await KeyLookup(whenConnected: whenConnected).key(for: server) }
        return try await offThread { Self.lookupNow(for: server) }
    }

    /// Removes the key stored for this server. Removing a key that is not there is not an error.
    public func clear(for server: ServerAddress) async throws(BuilderOSError) {
        try await offThread { () -> Result<Void, BuilderOSError> in
            var error: UnsafeMutablePointer<GError>?
            let attributes = Self.attributes(server)
            defer { g_hash_table_unref(attributes) }
            _ = secret_password_clearv_sync(Self.schema, attributes, nil, &error)
            if let error { return .failure(SecretErrorMapping.map(error)) }
            // A locked keyring may refuse silently: never report a key as removed while it is there.
            return Self.itemExistsWhileLocked(attributes) ? .failure(.keyringLocked) : .success(())
        }
    }

    // MARK: libsecret plumbing

    nonisolated(unsafe) private static let schema: UnsafePointer<SecretSchema> = {
        let types = g_hash_table_new(g_str_hash, g_str_equal)
        // SECRET_SCHEMA_ATTRIBUTE_STRING is 0, stored as a NULL pointer value.
        g_hash_table_insert(types, UnsafeMutableRawPointer(mutating: strdup("server")), nil)
        g_hash_table_insert(types, UnsafeMutableRawPointer(mutating: strdup("version")), nil)
        return UnsafePointer(secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types))
    }()

    private static func attributes(_ server: ServerAddress) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        g_hash_table_insert(table, g_strdup("server"), g_strdup(server.baseURL))
        g_hash_table_insert(table, g_strdup("version"), g_strdup(schemaVersion))
        return table
    }

    /// Connects to the session bus the way libsecret is about to: `g_bus_get` asynchronously, which
    /// GIO runs on a thread of its shared pool. The connection and that thread then exist before
    /// `whenConnected` runs, so libsecret's own `g_bus_get` reuses both and creates no thread while a
    /// `dlopen` started there holds the loader's lock (a thread created meanwhile waits for it).
    static func sessionBus() -> OpaquePointer? {
        waitForAsync({ g_bus_get(G_BUS_TYPE_SESSION, nil, $0, $1) }) { result in
            var error: UnsafeMutablePointer<GError>?
            let bus = g_bus_get_finish(result, &error)
            if let error { g_error_free(error) }
            return bus
        }
    }

    /// Runs a GIO-style asynchronous call on a main context of this thread's own and waits for its
    /// answer: `start` gets the callback and its data, `finish` the result (on this thread).
    private static func waitForAsync<T>(
        _ start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
        finish: (OpaquePointer?) -> T
    ) -> T {
        let answer = AsyncAnswer()
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context); g_main_context_unref(context) }
        start(
            { _, result, data in
                let answer = Unmanaged<AsyncAnswer>.fromOpaque(data!).takeRetainedValue()
                answer.result = result.map { OpaquePointer(g_object_ref(UnsafeMutableRawPointer($0))) }
                answer.done = true
            }, Unmanaged.passRetained(answer).toOpaque())
        while !answer.done { g_main_context_iteration(context, 1) }
        defer { if let result = answer.result { g_object_unref(UnsafeMutableRawPointer(result)) } }
        return finish(answer.result)
    }

    /// The lookup itself, blocking the calling thread (never the main one).
    static func lookupNow(for server: ServerAddress) -> Result<String?, BuilderOSError> {
        var error: UnsafeMutablePointer<GError>?
        let attributes = attributes(server)
        defer { g_hash_table_unref(attributes) }
        let secret = secret_password_lookupv_sync(schema, attributes, nil, &error)
        if let error { return .failure(SecretErrorMapping.map(error)) }
        guard let secret else {
            // A locked keyring whose unlock prompt cannot be shown answers "nothing" without
            // an error. An item that exists but cannot be read means locked, not signed out.
            return itemExistsWhileLocked(attributes) ? .failure(.keyringLocked) : .success(nil)
        }
        defer { secret_password_free(secret) }  // wipes the C copy
        return .success(String(cString: secret))
    }

    /// Opens the encrypted session with the Secret Service the way `secret_password_lookupv_sync`
    /// is about to: through libsecret's shared backend, which the lookup then reuses as it is. A
    /// failure is left for the lookup to report. The backend is not released: libsecret keeps its
    /// shared instance without a reference of its own (its own lookups never release theirs).
    static func openSecretServiceSession() {
        waitForAsync({ secret_backend_get(SECRET_BACKEND_OPEN_SESSION, nil, $0, $1) }) { result in
            var error: UnsafeMutablePointer<GError>?
            _ = secret_backend_get_finish(result, &error)
            if let error { g_error_free(error) }
        }
    }

    /// Searches without unlocking: true when a matching item exists.
    private static func itemExistsWhileLocked(_ attributes: OpaquePointer) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let items = secret_password_searchv_sync(schema, attributes, SECRET_SEARCH_ALL, nil, &error)
        if let error { g_error_free(error) }
        defer { g_list_free_full(items, g_object_unref) }
        return items != nil
    }

    /// libsecret's sync calls block on D-Bus: run them on a background thread, never the caller's.
    private func offThread<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, BuilderOSError>) async throws(BuilderOSError) -> T {
        let result = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
        return try result.get()
    }
}

/// What a GIO-style callback hands back to the thread waiting for it (`CredentialStore.waitForAsync`).
private final class AsyncAnswer {
    var result: OpaquePointer?
    var done = false
}

/// Tells "no Secret Service" from "locked / no default collection" from anything else.
enum SecretErrorMapping {
    static func map(_ error: UnsafeMutablePointer<GError>?) -> BuilderOSError {
        guard let error else { return .other(detail: "libsecret failed without an error") }
        defer { g_error_free(error) }
        let domain = error.pointee.domain, code = error.pointee.code
        let message = String(cString: error.pointee.message)
        if domain == secret_error_get_quark() {
            switch SecretError(rawValue: UInt32(code)) {
            case SECRET_ERROR_IS_LOCKED, SECRET_ERROR_NO_SUCH_OBJECT: return .keyringLocked
            default: break
            }
        }
        if message.localizedCaseInsensitiveContains("locked") || message.localizedCaseInsensitiveContains("no such object")
            || message.localizedCaseInsensitiveContains("prompt")
        {
            return .keyringLocked
        }
        if domain == g_dbus_error_quark() || domain == g_io_error_quark() || domain == g_spawn_error_quark() {
            return .secretServiceUnavailable
        }
        return .other(detail: message)
    }
}
