import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The main window: a header bar with the app menu, and the connection overview (state, server,
/// version, latency, Check Again). The Chat, Dashboard and Power pages join it in the main-window
/// issue.
@MainActor
public final class MainWindow {
    public let window: Widget
    let server: ServerAddress
    private let apiKey: String
    private let statusDot: Widget
    private let statusText: Widget
    private let version: Widget
    private let latency: Widget
    private let problem: Widget
    private let checkAgain: Widget
    private var checkTask: Task<Void, Never>?

    public init(application: UnsafeMutablePointer<GtkApplication>, server: ServerAddress, apiKey: String) {
        self.server = server
        self.apiKey = apiKey
        window = AppWindow.make(application, title: "BuilderOS", name: "main-window", width: 960, height: 680)
        let gwindow = gtkCast(window, to: GtkWindow.self)
        gtk_header_bar_pack_end(AppWindow.header(of: window), Self.menuButton())

        statusDot = UI.label("●", classes: [Style.headline], wrap: false)
        Accessibility.setLabel(statusDot, L("Connection state"))
        statusText = UI.label("", classes: [Style.headline])
        gtk_widget_set_name(statusText, "connection-state")
        version = UI.label("", classes: [Style.body])
        latency = UI.label("", classes: [Style.body])
        problem = UI.label("", classes: [Style.label, Style.errorText])
        checkAgain = UI.button(L("Check _Again"), classes: [Style.secondaryButton]) {}
        UI.align(checkAgain, h: GTK_ALIGN_START)

        let grid = InfoGrid.make([
            (L("Server"), UI.label(server.baseURL, classes: [Style.code])),
            (L("Version"), version), (L("Latency"), latency),
        ])
        let card = UI.vbox(spacing: Style.gap, classes: [Style.card], [
            UI.hbox(spacing: Style.gapSmall, [statusDot, statusText]), grid, problem, checkAgain,
        ])
        let column = UI.vbox(spacing: Style.gapLarge, [UI.label(L("Connection"), classes: [Style.title]), card])
        UI.size(column, width: 560)
        UI.align(column, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_START)
        UI.margins(column, top: Style.section, bottom: Style.section, start: Style.gapLarge, end: Style.gapLarge)
        gtk_window_set_child(gwindow, column)

        Signals.connect(UnsafeMutableRawPointer(checkAgain), "clicked") { [unowned self] in check() }
        let retained = Unmanaged.passRetained(self)
        Signals.connect(UnsafeMutableRawPointer(window), "destroy") { [unowned self] in
            checkTask?.cancel()
            retained.release()
        }
        check()
    }

    public func present() { gtk_window_present(gtkCast(window, to: GtkWindow.self)) }

    private static func menuButton() -> Widget {
        let menu = g_menu_new()!
        let items: [(String, String)] = [
            (L("_Preferences"), "app.preferences"), (L("_Change Server…"), "app.change-server"),
            (L("_Sign Out…"), "app.sign-out"), (L("_Keyboard Shortcuts"), "app.shortcuts"),
            (L("_About BuilderOS"), "app.about"), (L("_Quit"), "app.quit"),
        ]
        for (label, action) in items { g_menu_append(menu, label, action) }
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(OpaquePointer(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(menu))
        gtk_widget_set_tooltip_text(button, L("Main menu"))
        Accessibility.setLabel(button, L("Main menu"))
        return button
    }

    private func show(state: String, style: String, problemText: String?) {
        UI.setText(statusText, state)
        for s in [Style.successText, Style.warningText, Style.errorText] {
            UI.setClass(statusDot, s, s == style)
        }
        UI.setText(problem, problemText ?? "")
        UI.setVisible(problem, problemText != nil)
    }

    private func check() {
        checkTask?.cancel()
        show(state: L("Checking…"), style: Style.warningText, problemText: nil)
        UI.setSensitive(checkAgain, false)
        let client = RESTClient(server: server, apiKey: apiKey)
        checkTask = Task { [weak self] in
            do {
                let measured = try await client.measuredStatus()
                guard let self, !Task.isCancelled else { return }
                self.show(state: L("Connected"), style: Style.successText, problemText: nil)
                UI.setText(self.version, measured.status.version ?? L("unknown"))
                UI.setText(self.latency, String(format: L("%d ms"), Int(measured.latencyMilliseconds.rounded())))
            } catch {
                guard let self, !Task.isCancelled else { return }
                let failure = (error as? BuilderOSError) ?? .other(detail: String(describing: error))
                self.show(state: L("Not connected"), style: Style.errorText,
                          problemText: [failure.userMessage, failure.fixIt].compactMap { $0 }.joined(separator: " "))
            }
            self?.finishCheck()
        }
    }

    private func finishCheck() { UI.setSensitive(checkAgain, true) }
}
