import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The capsules card: a filter field and a grid of 2–4 columns (by width) of capsule tiles;
/// placeholders while loading, a plain sentence when the server has no system server.
@MainActor
final class CapsuleGrid {
    let widget: Widget
    private let flow: Widget
    private let filter: Widget
    private let message = UI.label("", classes: [Style.body, Style.dim])
    private let rest: any BuilderOSAPI
    private let window: @MainActor () -> Widget?
    private var all: [Capsule] = []

    init(rest: any BuilderOSAPI, window: @escaping @MainActor () -> Widget?) {
        self.rest = rest
        self.window = window
        flow = UI.flowBox(minPerLine: 2, maxPerLine: 4, spacing: UInt32(Style.gap), homogeneous: true)
        gtk_widget_set_name(flow, "capsules")
        Accessibility.setLabel(flow, L("Capsules"))
        filter = gtk_search_entry_new()
        gtk_widget_set_name(filter, "capsule-filter")
        Properties.setString(UnsafeMutableRawPointer(filter), "placeholder-text", L("Filter capsules"))
        Accessibility.setLabel(filter, L("Filter capsules"))
        gtk_widget_set_name(message, "capsules-message")
        widget = PageLayout.card(L("Capsules"), [filter, message, flow])
        Signals.connect(UnsafeMutableRawPointer(filter), "search-changed") { [unowned self] in fill() }
        Lifetime.tie(self, to: widget)
    }

    func showLoading() {
        clear()
        UI.setVisible(message, false)
        for _ in 0..<4 {
            let placeholder = UI.vbox(classes: [Style.placeholder])
            Accessibility.setLabel(placeholder, L("Loading…"))
            gtk_flow_box_append(OpaquePointer(flow), placeholder)
        }
    }

    func show(_ result: Result<CapsuleList, BuilderOSError>) {
        switch result {
        case .success(let list):
            all = list.capsules
            fill()
        case .failure(let error):
            all = []
            clear()
            UI.setText(
                message,
                error == .notAvailableOnServer
                    ? L("Capsules are not available on this server.")
                    : error.sentenceWithFix)
            UI.setVisible(message, true)
            UI.setVisible(filter, false)
        }
    }

    private func clear() {
        while let child = gtk_widget_get_first_child(flow) { gtk_flow_box_remove(OpaquePointer(flow), child) }
    }

    private func fill() {
        clear()
        UI.setVisible(filter, !all.isEmpty)
        let query = UI.text(of: filter).trimmingCharacters(in: .whitespaces).lowercased()
        let shown = all.filter {
            query.isEmpty || [$0.name, $0.displayTitle, $0.purpose ?? ""].contains { $0.lowercased().contains(query) }
        }
        for capsule in shown { gtk_flow_box_append(OpaquePointer(flow), tile(capsule)) }
        let text = all.isEmpty ? L("This server has no capsules yet.") : shown.isEmpty ? L("No capsule matches the filter.") : ""
        UI.setText(message, text)
        UI.setVisible(message, !text.isEmpty)
    }

    private func tile(_ capsule: Capsule) -> Widget {
        let title = UI.label(capsule.displayTitle, classes: [Style.headline])
        gtk_label_set_max_width_chars(OpaquePointer(title), Layout.chars("capsule-title"))
        let purpose = UI.label(capsule.purpose ?? "", classes: [Style.label, Style.dim])
        gtk_label_set_max_width_chars(OpaquePointer(purpose), Layout.chars("capsule-purpose"))
        gtk_label_set_lines(OpaquePointer(purpose), 3)
        gtk_label_set_ellipsize(OpaquePointer(purpose), PANGO_ELLIPSIZE_END)
        let content = UI.vbox(spacing: Style.gapTiny, [title, purpose])
        let button = gtk_button_new()!
        gtk_button_set_child(gtkCast(button, to: GtkButton.self), content)
        UI.addClasses(button, [Style.capsule])
        gtk_widget_set_name(button, "capsule-\(capsule.name)")
        Accessibility.setLabel(button, [capsule.displayTitle, capsule.purpose].compactMap { $0 }.joined(separator: ", "))
        Signals.connect(UnsafeMutableRawPointer(button), "clicked") { [unowned self] in
            guard let parent = window() else { return }
            CapsuleDetailWindow(parent: parent, capsule: capsule, rest: rest).present()
        }
        return button
    }
}
