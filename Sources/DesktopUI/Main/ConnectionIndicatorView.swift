import BuilderOSKit
import CGtk
import GtkKit

/// The dot and the words of the connection state, as the header shows them; the dot alone where the
/// header is narrow (its tooltip and spoken name keep the words). Fed by the one connection state
/// machine: every instance (main window, page windows) shows the same value.
@MainActor
final class ConnectionIndicatorView {
    let widget: Widget
    private let dots: [Widget]
    private let text: Widget

    init(connection: ConnectionController) {
        dots = [UI.dot(classes: [Style.dot]), UI.dot(classes: [Style.dot])]
        text = UI.label("", classes: [Style.label], wrap: false)
        gtk_widget_set_name(text, "connection-indicator")
        widget = WideOrNarrow.box(wide: UI.hbox(spacing: Style.gapTiny, [dots[0], text]), narrow: dots[1])
        gtk_widget_set_name(widget, "connection-state")
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        show(connection.snapshot)
        connection.changes.add(owner: self) { [weak self] in self?.show($0) }
        Lifetime.tie(self, to: widget)
    }

    private func show(_ snapshot: ConnectionSnapshot) {
        for state in [ConnectionIndicator.connected, .connecting, .disconnected, .failed] {
            dots.forEach { UI.setClass($0, state.rawValue, state == snapshot.indicator) }
        }
        UI.setText(text, snapshot.stateText)
        Accessibility.setLabel(widget, snapshot.accessibleText)
        Tooltip.set(widget, snapshot.accessibleText)
    }
}
