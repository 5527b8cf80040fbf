import CGtk

/// Application actions with keyboard accelerators (`app.quit` ↔ Ctrl+Q, …).
@MainActor
public enum Actions {
    /// Adds `app.<name>` to `application`, runs `handler` on activation, binds `accelerators`.
    @discardableResult
    public static func add(
        _ name: String, to application: UnsafeMutablePointer<GtkApplication>,
        accelerators: [String] = [], handler: @escaping @MainActor () -> Void
    ) -> SignalConnection {
        let action = g_simple_action_new(name, nil)!
        let connection = Signals.connect(UnsafeMutableRawPointer(action), "activate", withArgument: { _ in handler() })
        g_action_map_add_action(OpaquePointer(application), action)
        g_object_unref(UnsafeMutableRawPointer(action))  // the action map holds it now
        setAccelerators("app.\(name)", accelerators, application)
        return connection
    }

    /// Adds `app.<name>` taking a string (a notification's click names what it is about, as the
    /// action's target): `handler` gets the string.
    @discardableResult
    public static func add(
        _ name: String, to application: UnsafeMutablePointer<GtkApplication>, handler: @escaping @MainActor (String) -> Void
    ) -> SignalConnection {
        let type = g_variant_type_new("s")
        let action = g_simple_action_new(name, type)!
        g_variant_type_free(type)
        let connection = Signals.connect(
            UnsafeMutableRawPointer(action), "activate",
            withArgument: { parameter in
                guard let parameter else { return }
                handler(String(cString: g_variant_get_string(OpaquePointer(parameter), nil)))
            })
        g_action_map_add_action(OpaquePointer(application), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return connection
    }

    /// Adds `win.<name>` to a GtkApplicationWindow (each window has its own).
    @discardableResult
    public static func add(
        _ name: String, toWindow window: UnsafeMutablePointer<GtkWidget>,
        application: UnsafeMutablePointer<GtkApplication>,
        accelerators: [String] = [], handler: @escaping @MainActor () -> Void
    ) -> SignalConnection {
        let action = g_simple_action_new(name, nil)!
        let connection = Signals.connect(UnsafeMutableRawPointer(action), "activate", withArgument: { _ in handler() })
        g_action_map_add_action(OpaquePointer(window), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        if !accelerators.isEmpty { setAccelerators("win.\(name)", accelerators, application) }
        return connection
    }

    private static func setAccelerators(_ detailed: String, _ accelerators: [String], _ application: UnsafeMutablePointer<GtkApplication>) {
        var cStrings = accelerators.map { strdup($0) } + [nil]
        defer { cStrings.forEach { free($0) } }
        cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(application, detailed, $0)
            }
        }
    }
}
