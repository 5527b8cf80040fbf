import CGtk

final class ClickBox {
    let body: @MainActor (Double, Double) -> Void
    init(_ body: @escaping @MainActor (Double, Double) -> Void) { self.body = body }
}

final class DropBox {
    let body: @MainActor (UnsafePointer<GValue>) -> Bool
    init(_ body: @escaping @MainActor (UnsafePointer<GValue>) -> Bool) { self.body = body }
}

extension Signals {
    /// Calls `handler(x, y)` when `button` (3: right, secondary) is pressed on `widget`.
    @MainActor @discardableResult
    public static func onClick(_ widget: UnsafeMutablePointer<GtkWidget>, button: UInt32,
                               _ handler: @escaping @MainActor (Double, Double) -> Void) -> SignalConnection {
        let gesture = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gesture, button)
        gtk_widget_add_controller(widget, gesture)
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, _, x, y, user in
            MainActor.assumeIsolated { Unmanaged<ClickBox>.fromOpaque(user!).takeUnretainedValue().body(x, y) }
        }
        let user = Unmanaged.passRetained(ClickBox(handler)).toOpaque()
        let id = g_signal_connect_data(UnsafeMutableRawPointer(gesture), "pressed", unsafeBitCast(trampoline, to: GCallback.self), user, { user, _ in
            Unmanaged<ClickBox>.fromOpaque(user!).release()
        }, GConnectFlags(rawValue: 0))
        return SignalConnection(instance: UnsafeMutableRawPointer(gesture), handlerID: id)
    }

    /// Accepts files dropped on `widget`; `handler` gets their paths and says whether it took them.
    @MainActor @discardableResult
    public static func onFilesDropped(_ widget: UnsafeMutablePointer<GtkWidget>,
                                      _ handler: @escaping @MainActor ([String]) -> Bool) -> SignalConnection {
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        gtk_widget_add_controller(widget, target)
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<GValue>?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, value, _, _, user in
            guard let value else { return 0 }
            return MainActor.assumeIsolated { Unmanaged<DropBox>.fromOpaque(user!).takeUnretainedValue().body(value) ? 1 : 0 }
        }
        let user = Unmanaged.passRetained(DropBox { value in
            guard let boxed = g_value_get_boxed(value) else { return false }
            var paths: [String] = []
            var node = UnsafeMutableRawPointer(mutating: boxed).assumingMemoryBound(to: GSList.self) as UnsafeMutablePointer<GSList>?
            while let current = node {
                if let file = current.pointee.data, let path = g_file_get_path(OpaquePointer(file)) {
                    paths.append(String(cString: path))
                    g_free(path)
                }
                node = current.pointee.next
            }
            return handler(paths)
        }).toOpaque()
        let id = g_signal_connect_data(UnsafeMutableRawPointer(target), "drop", unsafeBitCast(trampoline, to: GCallback.self), user, { user, _ in
            Unmanaged<DropBox>.fromOpaque(user!).release()
        }, GConnectFlags(rawValue: 0))
        return SignalConnection(instance: UnsafeMutableRawPointer(target), handlerID: id)
    }
}
