import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// System status at a glance: the connection, the server's status, and its capsules (filterable,
/// with details). Refresh (F5) and an auto-refresh interval from the preferences.
@MainActor
final class DashboardPage: Page {
    let widget: Widget
    private let context: PageContext
    private let window: @MainActor () -> Widget?
    private let connectionState = UI.label("", classes: [Style.body])
    private let transport = UI.label("", classes: [Style.body])
    private let statusGrid: Widget
    private let version = UI.label("", classes: [Style.body])
    private let uptime = UI.label("", classes: [Style.body])
    private let health = UI.label("", classes: [Style.body])
    private let capsuleCount = UI.label("", classes: [Style.body])
    private let services = UI.label("", classes: [Style.body])
    private let statusProblem = UI.label("", classes: [Style.label, Style.errorText])
    private let capsules: CapsuleGrid
    private var loading: Task<Void, Never>?

    init(context: PageContext, window: @escaping @MainActor () -> Widget?) {
        self.context = context
        self.window = window
        let connection = context.session.connection
        let reconnect = UI.button(L("Re_connect"), classes: [Style.secondaryButton]) { connection.reconnect() }
        gtk_widget_set_name(reconnect, "dashboard-reconnect")
        UI.align(reconnect, h: GTK_ALIGN_START)
        let connectionCard = PageLayout.card(
            L("Connection"),
            [
                InfoGrid.make([
                    (L("State"), connectionState),
                    (L("Server"), UI.label(connection.snapshot.server.displayURL, classes: [Style.code], selectable: true)),
                    (L("Transport"), transport),
                ]), reconnect,
            ])
        gtk_widget_set_name(version, "dashboard-version")
        gtk_widget_set_name(uptime, "dashboard-uptime")
        statusGrid = InfoGrid.make([
            (L("Version"), version), (L("Uptime"), uptime), (L("Health"), health),
            (L("Capsules"), capsuleCount), (L("Services"), services),
        ])
        UI.setVisible(statusProblem, false)
        let statusCard = PageLayout.card(L("System status"), [statusGrid, statusProblem])
        capsules = CapsuleGrid(rest: connection.api, window: window)
        let refreshButton = PageLayout.iconButton("view-refresh-symbolic", label: L("Refresh (F5)")) {}
        gtk_widget_set_name(refreshButton, "dashboard-refresh")
        let (root, column) = PageLayout.column(title: L("Dashboard"), width: Layout.px("dashboard-column"), trailing: refreshButton)
        [connectionCard, statusCard, capsules.widget].forEach { UI.append(column, $0) }
        widget = root
        gtk_widget_set_name(widget, "dashboard-page")

        Signals.connect(UnsafeMutableRawPointer(refreshButton), "clicked") { [unowned self] in refresh() }
        connection.changes.add(owner: self) { [weak self] in self?.showConnection($0) }
        showConnection(connection.snapshot)
        showStatusPlaceholders()
        Lifetime.tie(self, to: widget)
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [unowned self] in loading?.cancel() }
        // The session's one schedule says when; this page refreshes only while it is on screen.
        connection.refreshSchedule.due.add(owner: self) { [weak self] in
            guard let self, gtk_widget_get_mapped(self.widget) != 0 else { return }
            self.refresh()
        }
    }

    func shown() {
        if loading == nil { refresh() }
    }

    func refresh() {
        loading?.cancel()
        showStatusPlaceholders()
        capsules.showLoading()
        let rest = context.session.connection.api
        let connection = context.session.connection
        loading = Task { [weak self] in
            async let status = Result.of { () async throws(BuilderOSError) in try await rest.status() }
            async let list = Result.of { () async throws(BuilderOSError) in try await rest.capsules() }
            let (s, c) = await (status, list)
            guard let self, !Task.isCancelled else { return }
            self.showStatus(s, capsules: try? c.get())
            connection.noteSystemRoute(c)
            self.capsules.show(c)
        }
    }

    private func showConnection(_ s: ConnectionSnapshot) {
        UI.setText(connectionState, s.stateText)
        UI.setText(transport, s.transportText)
        if s.indicator == .connected, oldIndicator != .connected, gtk_widget_get_mapped(widget) != 0 { refresh() }
        oldIndicator = s.indicator
    }
    private var oldIndicator: ConnectionIndicator?

    private func showStatusPlaceholders() {
        for label in [version, uptime, health, capsuleCount, services] { UI.setText(label, L("Loading…")); UI.setClass(label, Style.dim, true) }
        UI.setVisible(statusProblem, false)
    }

    private func showStatus(_ result: Result<StatusReply, BuilderOSError>, capsules list: CapsuleList?) {
        for label in [version, uptime, health, capsuleCount, services] { UI.setClass(label, Style.dim, false) }
        switch result {
        case .success(let s):
            UI.setText(version, s.version ?? L("unknown"))
            UI.setText(uptime, s.uptime.map { Durations.words(seconds: $0) } ?? L("unknown"))
            UI.setText(health, s.health ?? s.status ?? L("unknown"))
            UI.setText(capsuleCount, list.map { String($0.count ?? $0.capsules.count) } ?? L("not reported"))
            if let features = s.features, !features.isEmpty {
                let on = features.values.filter { $0 }.count
                UI.setText(services, L("%d of %d available", String(on), String(features.count)))
            } else {
                UI.setText(services, L("not reported"))
            }
        case .failure(let e):
            for label in [version, uptime, health, capsuleCount, services] { UI.setText(label, "—") }
            UI.setText(statusProblem, e.sentenceWithFix)
            UI.setVisible(statusProblem, true)
        }
    }
}
