import BuilderOSKit
import CGtk
import GtkKit

/// One page in a window of its own ("Open in New Window"), for a second monitor. It shows the
/// same session as the main window, so both stay in step.
@MainActor
final class PageWindow {
    let window: Widget
    private var page: Page?

    init(context: PageContext, kind: PageKind) {
        window = AppWindow.make(
            context.application, title: String(format: L("%@ — BuilderOS"), kind.title),
            name: "page-window-\(kind.rawValue)", width: Layout.px("page-window-width"), height: Layout.px("page-window-height"))
        let header = AppWindow.header(of: window)
        gtk_header_bar_set_title_widget(header, UI.label(kind.title, classes: [Style.headline], wrap: false))
        gtk_header_bar_pack_start(header, ConnectionIndicatorView(connection: context.session.connection).widget)
        let page = context.makePage(kind) { [weak self] in self?.window }
        self.page = page
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), page.widget)
        Actions.add("refresh", toWindow: window, application: context.application, accelerators: ["F5"]) { [unowned self] in
            self.page?.refresh()
        }
        Lifetime.tie(self, to: window)
    }

    func present() {
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        page?.shown()
    }
}
