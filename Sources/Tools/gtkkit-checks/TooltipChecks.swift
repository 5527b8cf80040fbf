import CGtk
import Foundation
import GtkKit

/// `Tooltip.set`: the text arrives, and no request goes to the X server where no tooltip can show.
@MainActor
enum TooltipChecks {
    static let all = [newWidgetAsksTheServerNothing, sameTextAsksTheServerNothing]

    /// A button not yet in a window gets its tooltip without a request to the X server, where
    /// `gtk_widget_set_tooltip_text` sends some (the control: it shows the probe sees requests).
    static let newWidgetAsksTheServerNothing = Check(name: "a tooltip set on a widget outside a window sends the X server nothing") {
        guard let requests = XRequests() else { return Outcome(passed: false, detail: "not on an X11 display") }
        let plain = ObjectRef(sinking: UnsafeMutableRawPointer(gtk_button_new()))
        let ours = ObjectRef(sinking: UnsafeMutableRawPointer(gtk_button_new()))
        let before = requests.sent
        gtk_widget_set_tooltip_text(plain.typed(GtkWidget.self), "Copy code")
        let byGTK = requests.sent - before
        let start = requests.sent
        Tooltip.set(ours.typed(GtkWidget.self), "Copy code")
        let byOurs = requests.sent - start
        let text = gtk_widget_get_tooltip_text(ours.typed(GtkWidget.self)).map { String(cString: $0) }
        let shown = gtk_widget_get_visible(ours.typed(GtkWidget.self)) != 0 && gtk_widget_get_has_tooltip(ours.typed(GtkWidget.self)) != 0
        return Outcome(passed: byGTK > 0 && byOurs == 0 && text == "Copy code" && shown,
                       detail: "X requests: GTK's setter \(byGTK), Tooltip.set \(byOurs); text \(text ?? "none"); visible with a tooltip \(shown)")
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
        return Outcome(passed: again == (0, 0) && changed == "Connection status: Disconnected" && notifications == 2 && removed,
                       detail: "same text: \(again.requests) X requests, \(again.notifications) notifications; new text \(changed ?? "none"); notifications \(notifications); empty removes it \(removed)")
    }
}

/// How many requests this process has sent to the X server (Xlib's request serial), looked up at
/// run time from the libraries GDK's X11 backend loaded; nil on any other display.
@MainActor
private struct XRequests {
    private typealias XDisplayOf = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias NextRequest = @convention(c) (OpaquePointer?) -> UInt
    private let xdisplay: OpaquePointer
    private let nextRequest: NextRequest

    init?() {
        guard let display = gdk_display_get_default(),
              let typeName = g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(display)), String(cString: typeName) == "GdkX11Display",
              let get = dlsym(nil, "gdk_x11_display_get_xdisplay"),
              let next = dlsym(nil, "XNextRequest"),
              let xdisplay = unsafeBitCast(get, to: XDisplayOf.self)(display) else { return nil }
        self.xdisplay = xdisplay
        nextRequest = unsafeBitCast(next, to: NextRequest.self)
    }

    var sent: UInt { nextRequest(xdisplay) }
}
