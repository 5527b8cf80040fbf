import BuilderOSKit
import CGtk
import GtkKit

/// One quick link: the dev server's name, its port and what usually runs there, and whether
/// something answers. The card of the page shown in the web view is highlighted.
@MainActor
final class QuickLinkCard {
    let link: QuickLink
    let widget: Widget
    private let status = UI.label("", classes: [Style.caption], wrap: false)
    private let dot = UI.dot(classes: [Style.dot])

    init(link: QuickLink, open: @escaping @MainActor (QuickLink) -> Void) {
        self.link = link
        let name = UI.label(link.name, classes: [Style.headline], wrap: false)
        let port = UI.label(":\(link.port) · \(link.summary)", classes: [Style.caption, Style.dim], wrap: false)
        gtk_label_set_ellipsize(OpaquePointer(status), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(OpaquePointer(status), Layout.chars("quick-link-line"))
        gtk_label_set_ellipsize(OpaquePointer(port), PANGO_ELLIPSIZE_END)
        Tooltip.set(port, ":\(link.port) · \(link.summary)")
        gtk_label_set_max_width_chars(OpaquePointer(port), Layout.chars("quick-link-line"))
        let statusRow = UI.hbox(spacing: Style.gapTiny, [dot, status])
        let content = UI.vbox(spacing: Style.gapHairline, [name, port, statusRow])
        widget = gtk_button_new()!
        gtk_button_set_child(gtkCast(widget, to: GtkButton.self), content)
        UI.addClasses(widget, [Style.quickLink])
        gtk_widget_set_name(widget, "quick-link-\(link.port)")
        UI.size(widget, width: Layout.px("quick-link-card"))
        Signals.connect(UnsafeMutableRawPointer(widget), "clicked") { open(link) }
        show(nil)
        setActive(false)
    }

    /// nil: not probed (the host cannot be reached directly).
    func show(_ result: ProbeResult?) {
        UI.setText(status, result?.summary ?? "")
        UI.setVisible(dot, result != nil)
        Tooltip.set(status, result?.summary)
        for state in ["connected", "connecting", "disconnected"] { UI.setClass(dot, state, false) }
        switch result {
        case .up?: UI.setClass(dot, "connected", true)
        case .checking?: UI.setClass(dot, "connecting", true)
        case .some: UI.setClass(dot, "disconnected", true)
        case nil: break
        }
        describe()
    }

    func setActive(_ active: Bool) {
        UI.setClass(widget, "active", active)
        self.active = active
        describe()
    }
    private var active = false

    /// "Selected, React/Next.js, port 3000, Development server, Up · 200", as the design's screen reader text.
    private func describe() {
        var parts = [link.name, L("port %d", String(link.port)), link.summary]
        if active { parts.insert(L("Selected"), at: 0) }
        let text = String(cString: gtk_label_get_text(OpaquePointer(status)))
        if !text.isEmpty { parts.append(text) }
        Accessibility.setLabel(widget, parts.joined(separator: ", "))
    }
}
