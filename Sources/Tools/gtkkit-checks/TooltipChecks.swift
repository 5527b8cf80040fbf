import CGtk
import Foundation
import GtkKit

/// `Tooltip.set`: the text arrives, and no request goes to the X server where no tooltip can show.
@MainActor
enum TooltipChecks {
    static let all = [newWidgetAsksTheServerNothing, sameTextAsksTheServerNothing]

    /// A button not in a window, and one in a window not yet shown, get their tooltips without a
    /// request to the X server, where `gtk_widget_set_tooltip_text` sends some (the control: it
    /// shows the probe sees requests); the window's focus and default widgets keep their roles.
    static let newWidgetAsksTheServerNothing = Check(name: "a tooltip set on a widget not on screen sends the X server nothing") {
        guard let requests = XRequests() else { return Outcome(passed: false, detail: "not on an X11 display") }
        let plain = ObjectRef(sinking: UnsafeMutableRawPointer(gtk_button_new()))
        let loose = ObjectRef(sinking: UnsafeMutableRawPointer(gtk_button_new()))
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let (inWindow, focused, byDefault) = (gtk_button_new()!, gtk_button_new()!, gtk_button_new()!)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), UI.hbox(spacing: 0, [inWindow, focused, byDefault]))
        gtk_widget_grab_focus(focused)
        gtk_window_set_default_widget(gtkCast(window, to: GtkWindow.self), byDefault)
        let before = requests.sent
        gtk_widget_set_tooltip_text(plain.typed(GtkWidget.self), "Copy code")
        let byGTK = requests.sent - before
        let start = requests.sent
        Tooltip.set(loose.typed(GtkWidget.self), "Copy code")
        Tooltip.set(inWindow, "Rename")
        let byOurs = requests.sent - start
        Tooltip.set(focused, "Delete")
        Tooltip.set(byDefault, "Send")
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin(seconds: 0.5) { false }
        let focusKept = gtk_root_get_focus(OpaquePointer(window)) == focused
        let defaultKept = gtk_window_get_default_widget(gtkCast(window, to: GtkWindow.self)) == byDefault
        let roles = focusKept && defaultKept
        func text(_ w: Widget) -> String { gtk_widget_get_tooltip_text(w).map { String(cString: $0) } ?? "none" }
        let texts = [loose.typed(GtkWidget.self), inWindow, focused, byDefault].map(text)
        let shown = [loose.typed(GtkWidget.self), inWindow].allSatisfy { gtk_widget_get_visible($0) != 0 && gtk_widget_get_has_tooltip($0) != 0 }
        return Outcome(
            passed: byGTK > 0 && byOurs == 0 && texts == ["Copy code", "Rename", "Delete", "Send"] && shown && roles,
            detail:
                "X requests: GTK's setter \(byGTK), Tooltip.set \(byOurs); texts \(texts); visible with a tooltip \(shown); focus kept \(focusKept), default kept \(defaultKept)"
        )
    }

    /// In a shown window the same text again sends nothing and notifies nothing; a new text is
    /// set the way GTK sets it (its query updates a tooltip on screen), and an empty one removes it.
    static let sameTextAsksTheServerNothing = Check(name: "the same tooltip again changes nothing; a new one is set, an empty one removed") {
        guard let requests = XRequests() else { return Outcome(passed: false, detail: "not on an X11 display") }
        let window = gtk_window_new()!
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        let label = UI.label("Connected", wrap: false)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), label)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        _ = Loop.spin { gtk_widget_get_mapped(label) != 0 }
        Tooltip.set(label, "Connection status: Connected")
        var notifications = 0
        let watch = Signals.connect(UnsafeMutableRawPointer(label), "notify::tooltip-text", withArgument: { _ in notifications += 1 })
        defer { watch.disconnect() }
        let start = requests.sent
        Tooltip.set(label, "Connection status: Connected")
        let again = (requests: requests.sent - start, notifications: notifications)
        Tooltip.set(label, "Connection status: Disconnected")
        let changed = gtk_widget_get_tooltip_text(label).map { String(cString: $0) }
        Tooltip.set(label, "")
        let removed = gtk_widget_get_tooltip_text(label) == nil && gtk_widget_get_has_tooltip(label) == 0
        return Outcome(
            passed: again == (0, 0) && changed == "Connection status: Disconnected" && notifications == 2 && removed,
            detail:
                "same text: \(again.requests) X requests, \(again.notifications) notifications; new text \(changed ?? "none"); notifications \(notifications); empty removes it \(removed)"
        )
    }
}

/// How many requests this process has sent to the X server (Xlib's request serial), looked up at
/// run time from the libraries GDK's X11 backend loaded; nil on any other display.
@MainActor
struct XRequests {
    private typealias XDisplayOf = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias NextRequest = @convention(c) (OpaquePointer?) -> UInt
    private let xdisplay: OpaquePointer
    private let nextRequest: NextRequest

    init?() {
        guard let display = gdk_display_get_default(),
            let typeName = g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(display)), String(cString: typeName) == "GdkX11Display",
            let get = dlsym(nil, "gdk_x11_display_get_xdisplay"),
            let next = dlsym(nil, "XNextRequest"),
            let xdisplay = unsafeBitCast(get, to: XDisplayOf.self)(display)
        else { return nil }
        self.xdisplay = xdisplay
        nextRequest = unsafeBitCast(next, to: NextRequest.self)
    }

    var sent: UInt { nextRequest(xdisplay) }
}
