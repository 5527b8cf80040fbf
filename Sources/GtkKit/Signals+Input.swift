import CGtk

extension Signals {
    /// Calls `handler(x, y)` when `button` (3: right, secondary) is pressed on `widget`.
    @MainActor @discardableResult
    public static func onClick(
        _ widget: UnsafeMutablePointer<GtkWidget>, button: UInt32,
        _ handler: @escaping @MainActor (Double, Double) -> Void
    ) -> SignalConnection {
        let gesture = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gesture, button)
        gtk_widget_add_controller(widget, gesture)
        typealias Body = @MainActor (Double, Double) -> Void
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, _, x, y, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)(x, y) }
        }
        return attach(UnsafeMutableRawPointer(gesture), "pressed", unsafeBitCast(trampoline, to: GCallback.self), handler as Body)
    }

    /// Calls `handler` whenever the user scrolls (wheel, touchpad), clicks or presses a key in `widget` or
    /// its children: input the user made, told apart from the widget's own moves. The controllers only
    /// watch (capture phase, nothing claimed), so the children still get every event.
    @MainActor
    public static func onUserInput(_ widget: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping @MainActor () -> Void) {
        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        gtk_event_controller_set_propagation_phase(scroll, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(widget, scroll)
        typealias Body = @MainActor () -> Void
        let scrolled: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, _, _, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)() }
            return 0
        }
        _ = attach(UnsafeMutableRawPointer(scroll), "scroll", unsafeBitCast(scrolled, to: GCallback.self), handler as Body)
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, 0)
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(widget, click)
        let pressed: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, _, _, _, user in
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)() }
        }
        _ = attach(UnsafeMutableRawPointer(click), "pressed", unsafeBitCast(pressed, to: GCallback.self), handler as Body)
        onKeyPressed(widget) { _, _ in
            handler()
            return false
        }
    }

    /// Calls `handler(x, y)` when the primary button is pressed with Ctrl held (a link in a terminal).
    @MainActor @discardableResult
    public static func onControlClick(
        _ widget: UnsafeMutablePointer<GtkWidget>,
        _ handler: @escaping @MainActor (Double, Double) -> Void
    ) -> SignalConnection {
        let gesture = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gesture, 1)
        gtk_event_controller_set_propagation_phase(gesture, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(widget, gesture)
        typealias Body = @MainActor (Double, Double) -> Void
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = {
            gesture, _, x, y, user in
            let state = gtk_event_controller_get_current_event_state(OpaquePointer(gesture))
            guard state.rawValue & GDK_CONTROL_MASK.rawValue != 0 else { return }
            MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)(x, y) }
        }
        return attach(UnsafeMutableRawPointer(gesture), "pressed", unsafeBitCast(trampoline, to: GCallback.self), handler as Body)
    }

    /// Accepts files dropped on `widget`; `handler` gets their paths and says whether it took them.
    @MainActor @discardableResult
    public static func onFilesDropped(
        _ widget: UnsafeMutablePointer<GtkWidget>,
        _ handler: @escaping @MainActor ([String]) -> Bool
    ) -> SignalConnection {
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        gtk_widget_add_controller(widget, target)
        typealias Body = @MainActor (UnsafePointer<GValue>) -> Bool
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<GValue>?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = {
            _, value, _, _, user in
            guard let value else { return 0 }
            return MainActor.assumeIsolated { SignalClosure.body(user, as: Body.self)(value) ? 1 : 0 }
        }
        let body: Body = { value in
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
        }
        return attach(UnsafeMutableRawPointer(target), "drop", unsafeBitCast(trampoline, to: GCallback.self), body)
    }
}
