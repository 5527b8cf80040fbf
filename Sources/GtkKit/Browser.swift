import CGtk

/// The desktop's default handler for a web address (its browser), through GIO.
@MainActor
public enum Browser {
    /// Opens `uri`; returns GIO's error text when no handler could be started.
    @discardableResult
    public static func open(_ uri: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(uri, nil, &error) != 0 { return nil }
        defer { if error != nil { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) } ?? "no handler"
    }
}
