import BuilderOSKit
import CGtk
import GtkKit

/// One page in a window of its own ("Open in New Window"), for a second monitor. It shows the
/// same session as the main window, so both stay in step; its header names the server, as the main
/// window may since have switched to another, and it closes when that server's session ends (forgotten,
/// or its key replaced).
@MainActor
final class PageWindow {
    let window: Widget
    private var page: Page?
    private weak var session: AppSession?
    private let context: PageContext
    private let kind: PageKind
    private let serverName: Widget
    /// The open page windows, for `close(showing:)`.
    private static var open: [WeakBox<PageWindow>] = []

    init(context: PageContext, kind: PageKind) {
        (self.context, self.kind, session) = (context, kind, context.session)
        window = AppWindow.make(
            context.application, title: "", name: "page-window-\(kind.rawValue)", width: Layout.px("page-window-width"),
            height: Layout.px("page-window-height"))
        let header = AppWindow.header(of: window)
        serverName = UI.label("", classes: [Style.caption, Style.dim], wrap: false, xalign: 0.5)
        gtk_widget_set_name(serverName, "page-window-server")
        let title = UI.vbox([UI.label(kind.title, classes: [Style.headline], wrap: false, xalign: 0.5), serverName])
        UI.align(title, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_CENTER)
        gtk_header_bar_set_title_widget(header, title)
        let indicator = ConnectionIndicatorView(connection: context.session.connection).widget
        UI.margins(indicator, start: Style.gapTiny)  // as in the main window's header
        gtk_header_bar_pack_start(header, indicator)
        let page = context.makePage(kind) { [weak self] in self?.window }
        self.page = page
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), page.widget)
        Actions.add("refresh", toWindow: window, application: context.application, accelerators: ["F5"]) { [unowned self] in
            self.page?.refresh()
        }
        showServerName()
        context.servers?.serverChanges.add(owner: self) { [weak self] in self?.showServerName() }
        Self.open.removeAll { $0.value == nil }
        let entry = WeakBox<PageWindow>()
        entry.value = self
        Self.open.append(entry)
        Lifetime.tie(self, to: window)
    }

    func present() {
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        page?.shown()
    }

    /// Closes the page windows showing `session`, which has ended: nothing in them would work any more.
    static func close(showing session: AppSession) {
        for pageWindow in open.compactMap(\.value) where pageWindow.session === session {
            gtk_window_destroy(gtkCast(pageWindow.window, to: GtkWindow.self))
        }
    }

    /// The server's name as the switcher shows it (renamed since, the header follows).
    private func showServerName() {
        let name = context.serverSettings?.name ?? context.session.server.displayURL
        UI.setText(serverName, name)
        gtk_window_set_title(gtkCast(window, to: GtkWindow.self), L("%1$@ on %2$@ — BuilderOS", kind.title, name))
    }
}
