import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// A capsule's details: name, purpose, and its path and directories when the server has them.
@MainActor
final class CapsuleDetailWindow {
    let window: Widget
    private let details = UI.vbox(spacing: Style.gapSmall)
    private let content: Widget
    private let close: Widget

    init(parent: Widget, capsule: Capsule, rest: any BuilderOSAPI) {
        window = AppWindow.dialog(parent: parent, title: capsule.displayTitle, name: "capsule-detail", resizable: true)
        let gwindow = gtkCast(window, to: GtkWindow.self)
        close = UI.button(L("_Close"), classes: [Style.secondaryButton]) { gtk_window_destroy(gwindow) }
        UI.align(close, h: GTK_ALIGN_END)
        UI.append(details, UI.label(L("Loading…"), classes: [Style.body, Style.dim]))
        content = UI.vbox(
            spacing: Style.gap,
            [
                UI.label(capsule.displayTitle, classes: [Style.title]),
                UI.label(capsule.name, classes: [Style.code, Style.dim], selectable: true),
                UI.label(capsule.purpose ?? "", classes: [Style.body]),
                details, close,
            ])
        Lifetime.tie(self, to: window)
        Task { [weak self] in
            let result = await Result.of { () async throws(BuilderOSError) in try await rest.capsule(named: capsule.name) }
            self?.show(result)
        }
    }

    /// At the dialogs' fixed width, which it may be widened from: with none, the window's least height
    /// was the height of its wrapping labels at their narrowest, a character a line (taller than the
    /// screen). Focus on Close, not on the first selectable label, which would show as selected.
    func present() { AppWindow.present(dialog: window, content: content, width: Layout.px("detail-width"), focus: close) }

    private func show(_ result: Result<CapsuleDetail, BuilderOSError>) {
        while let child = gtk_widget_get_first_child(details) { gtk_box_remove(gtkCast(details, to: GtkBox.self), child) }
        switch result {
        case .success(let detail):
            var rows: [(String, Widget)] = []
            if let path = detail.path { rows.append((L("Path"), UI.label(path, classes: [Style.code], selectable: true))) }
            if let dirs = detail.directories, !dirs.isEmpty {
                rows.append((L("Directories"), UI.label(dirs.joined(separator: "\n"), classes: [Style.code], selectable: true)))
            }
            UI.append(
                details,
                rows.isEmpty
                    ? UI.label(L("The server gives no more details for this capsule."), classes: [Style.body, Style.dim])
                    : InfoGrid.make(rows))
        case .failure(let e):
            let text = e == .notAvailableOnServer ? L("This server does not give details for capsules.") : e.userMessage
            UI.append(details, UI.label(text, classes: [Style.body, Style.dim]))
        }
    }
}
