import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Connection health: state, server, version, latency, the big Connect/Disconnect/Retry button,
/// advice for the last failure, recent activity from local history, and the server: Replace Key, Change Address, Forget, Add.
@MainActor
final class ConnectionPage: Page {
    let widget: Widget
    private let context: PageContext
    private let state = UI.label("", classes: [Style.body])
    private let version = UI.label("", classes: [Style.body])
    private let latency = UI.label("", classes: [Style.body])
    private let bigButton: Widget
    private let helpCard: Widget
    private let helpText = UI.label("", classes: [Style.body])
    private let lastSync = UI.label("", classes: [Style.body])
    private let messagesToday = UI.label("", classes: [Style.body])
    private let repliesToday = UI.label("", classes: [Style.body])

    init(context: PageContext, window: @escaping @MainActor () -> Widget?) {
        self.context = context
        let connection = context.session.connection
        gtk_widget_set_name(state, "connection-status")
        gtk_widget_set_name(latency, "connection-latency")
        bigButton = UI.button("", classes: [Style.suggested]) {}
        gtk_widget_set_name(bigButton, "connect-button")
        let server = UI.label(connection.snapshot.server.displayURL, classes: [Style.code], selectable: true)
        let status = PageLayout.card(
            L("Status"),
            [
                InfoGrid.make([
                    (L("Status"), state), (L("Server"), server), (L("Version"), version), (L("Latency"), latency),
                ]), bigButton,
            ])
        helpCard = PageLayout.card(L("What you can do"), [helpText])
        gtk_widget_set_name(helpText, "connection-help")
        let activity = PageLayout.card(
            L("Recent activity"),
            [
                InfoGrid.make([
                    (L("Last sync"), lastSync), (L("Messages today"), messagesToday), (L("Replies completed today"), repliesToday),
                ])
            ])
        // This server's key and address, and the list of servers.
        let buttons: [(String, String, String)] = [
            (L("_Rename…"), "app.rename-server", "rename-server"), (L("_Replace Key…"), "app.replace-key", "replace-key"),
            (L("_Change Address…"), "app.change-server", "change-server"),
            (L("_Forget Server…"), "app.sign-out", "forget-server"), (L("_Add Server…"), "app.add-server", "add-server"),
        ]
        // Wrapped as the page narrows.
        let row = UI.flowBox(minPerLine: 1, maxPerLine: UInt32(buttons.count), spacing: UInt32(Style.gapSmall))
        Accessibility.setLabel(row, L("Server"))
        for (label, action, name) in buttons {
            let button = UI.button(label, classes: [Style.secondaryButton]) { context.activate(action) }
            gtk_widget_set_name(button, name)
            gtk_flow_box_append(OpaquePointer(row), button)
        }
        let account = PageLayout.card(L("Server"), [row])
        let (root, column) = PageLayout.column(title: L("Connection"))
        [status, helpCard, activity, account].forEach { UI.append(column, $0) }
        widget = root
        gtk_widget_set_name(widget, "connection-page")

        Signals.connect(UnsafeMutableRawPointer(bigButton), "clicked") { [unowned self] in buttonPressed() }
        connection.changes.add(owner: self) { [weak self] in self?.show($0) }
        context.session.chat.changes.add(owner: self) { [weak self] event in
            // Counted from the history: on new messages and finished turns, not on every chunk.
            switch event {
            case .messageAdded, .turnChanged, .messagesReplaced: self?.showActivity()
            case .messageChanged, .replyGrew, .conversationsChanged: break
            }
        }
        show(connection.snapshot)
        Lifetime.tie(self, to: widget)
    }

    func shown() { showActivity() }
    func refresh() { context.session.connection.refreshStatus() }

    private func buttonPressed() {
        let connection = context.session.connection
        switch connection.snapshot.action {
        case .disconnect: connection.disconnect()
        case .connect: connection.connect()
        case .retry: connection.reconnect()
        case .wait: break
        }
    }

    private func show(_ s: ConnectionSnapshot) {
        UI.setText(state, s.stateText)
        Accessibility.setLabel(state, s.accessibleText)
        for (cls, on) in [
            (Style.successText, s.indicator == .connected), (Style.warningText, s.indicator == .connecting),
            (Style.errorText, s.indicator == .disconnected || s.indicator == .failed),
        ] {
            UI.setClass(state, cls, on)
        }
        UI.setText(version, s.status?.version ?? L("unknown"))
        if let ms = s.latencyMilliseconds, s.indicator == .connected {
            let text = L("%d ms", String(Int(ms.rounded())))
            UI.setText(latency, s.isSlow ? L("%@ — slow; replies may lag", text) : text)
            UI.setClass(latency, Style.warningText, s.isSlow)
        } else {
            UI.setText(latency, L("not measured"))
            UI.setClass(latency, Style.warningText, false)
        }
        let (label, style, enabled): (String, String, Bool) = {
            switch s.action {
            case .disconnect: return (L("_Disconnect"), Style.destructive, true)
            case .connect: return (L("_Connect"), Style.connectButton, true)
            case .wait: return (L("Connecting…"), Style.suggested, false)
            case .retry: return (L("_Retry"), Style.suggested, true)
            }
        }()
        UI.setButtonLabel(bigButton, label)
        for cls in [Style.destructive, Style.connectButton, Style.suggested] { UI.setClass(bigButton, cls, cls == style) }
        UI.setSensitive(bigButton, enabled)
        Accessibility.setLabel(bigButton, s.action == .disconnect ? L("Disconnect from BuilderOS") : L("Connect to BuilderOS"))
        if let help = s.help {
            UI.setText(helpText, help)
        } else if s.indicator == .disconnected {
            UI.setText(helpText, L("You are disconnected. Messages you write are kept and sent when you connect again."))
        } else {
            UI.setText(helpText, L("Everything is working. If replies stop arriving, check that the server machine is awake."))
        }
        UI.setText(lastSync, s.lastSync.map(Self.relative) ?? L("never"))
    }

    private func showActivity() {
        let activity = context.session.chat.activityToday()
        UI.setText(messagesToday, String(activity.messagesToday))
        UI.setText(repliesToday, String(activity.repliesCompletedToday))
    }

    static func relative(_ date: Date) -> String {
        let seconds = Date().timeIntervalSince(date)
        if seconds < 60 { return L("just now") }
        return L("%@ ago", Durations.words(seconds: seconds))
    }
}
