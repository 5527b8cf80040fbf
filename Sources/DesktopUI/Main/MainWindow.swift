import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The main window: header (title, server switcher, connection indicator, page switcher, menus) and the
/// pages in a stack. Size and page are remembered; Ctrl+1…6 switch pages; F5 refreshes; each page can open
/// in a window of its own. Switching servers builds a new `MainWindow` in the same GtkWindow (`reusing`):
/// the window stays where it is, and the content of the one before is released (`retire`).
@MainActor
public final class MainWindow {
    public let window: Widget
    let context: PageContext
    var server: ServerAddress { context.session.server }
    private let stack: Widget
    private var pages: [PageKind: Page] = [:]
    private var slots: [PageKind: Widget] = [:]
    private var windowSignals: [SignalConnection] = []
    /// Weak: the switcher lives as long as its widget. A switch replaces the header before this window's content,
    /// and a switcher kept past its widget would write news into its freed label.
    private(set) weak var switcher: ServerSwitcher?

    init(context: PageContext, reusing existing: Widget? = nil) {
        self.context = context
        let settings = context.settings
        if let existing {
            window = existing
            gtk_window_set_titlebar(gtkCast(window, to: GtkWindow.self), gtk_header_bar_new())
        } else {
            window = AppWindow.make(
                context.application, title: "BuilderOS", name: "main-window",
                width: max(Int32(settings.windowWidth), Layout.px("window-min-width")),
                height: max(Int32(settings.windowHeight), Layout.px("window-min-height")))
            gtk_widget_set_size_request(window, Layout.px("window-min-width"), Layout.px("window-min-height"))
        }
        let header = AppWindow.header(of: window)

        // Homogeneous, unlike `UI.stack()`: the window keeps one minimum size whichever page shows.
        // Pages are made when first shown, so only visited pages are measured.
        stack = gtk_stack_new()
        gtk_stack_set_transition_type(OpaquePointer(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_widget_set_name(stack, "pages")

        // Every page has its slot in the stack from the start (the switcher lists them all), but a page
        // itself is made when it is first shown: start-up and idle memory pay only for the page on screen.
        for kind in PageKind.allCases {
            let slot = UI.vbox()
            gtk_widget_set_vexpand(slot, 1)
            slots[kind] = slot
            // The switcher shows the names, and the icons where the header is narrow.
            let page = gtk_stack_add_titled(OpaquePointer(stack), slot, kind.rawValue, kind.title)
            gtk_stack_page_set_icon_name(page, kind.iconName)
        }
        // Our own switcher, not GtkStackSwitcher, which sets each button's tooltip as it makes it:
        // on X11 each of those asks the server where the pointer is (`GtkKit/PageSwitcher`).
        let pageSwitcher = PageSwitcher.make(for: stack, label: L("Pages"), classes: [Style.pageSwitcher]) { name in
            PageKind(rawValue: name).map { L("%@ (Ctrl+%d)", $0.title, String($0.number)) }
        }
        gtk_widget_set_name(pageSwitcher, "page-switcher")
        gtk_header_bar_set_title_widget(header, headerContent(of: header, settings: settings, pageSwitcher: pageSwitcher))
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), stack)
        let first = PageKind(rawValue: settings.page) ?? .chat
        _ = page(first)
        gtk_stack_set_visible_child_name(OpaquePointer(stack), first.rawValue)

        addActions()
        Signals.connect(UnsafeMutableRawPointer(stack), "notify::visible-child-name", withArgument: { [unowned self] _ in pageChanged() })
        // Back in the window after `builderos history import` in a terminal: its conversations show.
        windowSignals.append(
            Signals.connect(
                UnsafeMutableRawPointer(window), "notify::is-active",
                withArgument: { [unowned self] _ in
                    if gtk_window_is_active(gtkCast(window, to: GtkWindow.self)) != 0 { context.session.chat.catchUpWithOtherWriters() }
                }))
        windowSignals.append(
            Signals.connectHandled(UnsafeMutableRawPointer(window), "close-request") { [unowned self] in
                rememberSize()
                return false
            })
        // The content's life is this object's: it ends with the window, or when another server's content replaces it.
        Lifetime.tie(self, to: stack)
    }

    /// The header's content: the title, the server switcher and the connection's state; the page switcher in the
    /// middle; the menus. Where the window is narrow the title goes first, then the state's words (its dot stays),
    /// then the pages' names (their icons stay), then the end of the server's name; what the icons leave room for
    /// comes back (`HeaderLayout`).
    private func headerContent(of header: OpaquePointer, settings: AppSettings, pageSwitcher: Widget) -> Widget {
        gtk_header_bar_set_show_title_buttons(header, 0)
        let title = UI.label("BuilderOS", classes: [Style.headline], wrap: false)
        gtk_widget_set_name(title, "header-title")
        let indicator = ConnectionIndicatorView(connection: context.session.connection)
        var leading = [UI.windowControls(GTK_PACK_START), title]
        var steps: [HeaderLayout.Step] = [.hide(title), .compact(indicator.widget), .compact(pageSwitcher)]
        if let directory = context.servers {
            let switcher = ServerSwitcher(
                directory: directory, connection: context.session.connection,
                name: settings.server(at: context.session.server)?.name ?? context.session.server.displayURL)
            self.switcher = switcher
            leading.append(switcher.widget)
            steps.append(.shrink(switcher.widget))
        }
        leading.append(indicator.widget)
        let trailing = [Self.pageMenuButton(), Self.mainMenuButton(), UI.windowControls(GTK_PACK_END)]
        for widget in leading + trailing + [pageSwitcher] { gtk_widget_set_valign(widget, GTK_ALIGN_CENTER) }
        let content = HeaderLayout.box(leading: leading, center: pageSwitcher, trailing: trailing, steps: steps, spacing: Style.gap)
        gtk_widget_set_name(content, "header-content")
        UI.margins(content, start: Style.gapTiny)
        return content
    }

    /// Before another `MainWindow` is built in this window: the size is kept and nothing of this one stays
    /// connected to the window (its content goes when the next one's replaces it).
    func retire() {
        rememberSize()
        windowSignals.forEach { $0.disconnect() }
        windowSignals = []
    }

    public func present() {
        BenchmarkExit.arm(window)
        // Before the window shows: a window that shows with no focus widget first focuses its first
        // focusable one, and the page's own focus then moved it again (two focus changes, each
        // restyling the focused widgets' ancestors and telling the accessibility bus).
        currentPage?.shown()
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
    }

    var currentKind: PageKind {
        gtk_stack_get_visible_child_name(OpaquePointer(stack)).flatMap { PageKind(rawValue: String(cString: $0)) } ?? .chat
    }

    private var currentPage: Page? { page(currentKind) }

    func show(_ kind: PageKind) { gtk_stack_set_visible_child_name(OpaquePointer(stack), kind.rawValue) }

    /// The page of `kind`, made (into its slot) the first time it is asked for.
    func page(_ kind: PageKind) -> Page {
        if let page = pages[kind] { return page }
        let page = context.makePage(kind) { [weak self] in self?.window }
        pages[kind] = page
        if let slot = slots[kind] {
            gtk_widget_set_vexpand(page.widget, 1)
            UI.append(slot, page.widget)
        }
        return page
    }

    /// The tray's New Chat: a Jarvis conversation on the Chat page.
    func newChat() {
        show(.chat)
        (page(.chat) as? ChatPage)?.newConversation(.jarvis)
    }

    /// The tray's New Terminal: a shell tab on the Terminal page.
    /// A conversation of this window's server, shown on the Chat page (a notification's click).
    func openConversation(_ id: UUID) {
        show(.chat)
        (page(.chat) as? ChatPage)?.open(id)
    }

    func newTerminal() {
        show(.terminal)
        (page(.terminal) as? TerminalPage)?.newShell()
    }

    /// The tray's Sleep Server…: the Power page's confirmation.
    func askSleep() {
        show(.power)
        (page(.power) as? PowerPage)?.askSleep()
    }

    private func pageChanged() {
        let kind = currentKind
        context.update { $0.page = kind.rawValue }
        page(kind).shown()
    }

    func rememberSize() {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(gtkCast(window, to: GtkWindow.self), &width, &height)
        guard width > 0, height > 0 else { return }
        context.update {
            $0.windowWidth = Int(width); $0.windowHeight = Int(height)
        }
    }

    private func addActions() {
        for kind in PageKind.allCases {
            Actions.add(
                kind.actionName, toWindow: window, application: context.application,
                accelerators: [kind.accelerator]
            ) { [unowned self] in show(kind) }
        }
        Actions.add("switch-server", toWindow: window, application: context.application, accelerators: ["<Control><Shift>s"]) {
            [unowned self] in switcher?.open()
        }
        Actions.add("refresh", toWindow: window, application: context.application, accelerators: ["F5"]) { [unowned self] in
            currentPage?.refresh()
        }
        Actions.add("quick-actions", toWindow: window, application: context.application, accelerators: ["<Control>k"]) { [unowned self] in
            show(.chat)
            (page(.chat) as? ChatPage)?.openQuickActions()
        }
        Actions.add("search-history", toWindow: window, application: context.application, accelerators: ["<Control><Shift>f"]) { [unowned self] in
            show(.chat)
            (page(.chat) as? ChatPage)?.sidebar.focusSearch()
        }
        // Export and import from the main menu (every conversation; the open one's are the page's own actions).
        let transfers: [(String, @MainActor (ChatPage) -> Void)] = [
            ("export-history-json", { $0.transfer.export(nil, as: .json) }),
            ("export-history-markdown", { $0.transfer.export(nil, as: .markdown) }),
            ("import-history", { $0.transfer.importHistory() }),
        ]
        for (name, body) in transfers {
            Actions.add(name, toWindow: window, application: context.application, accelerators: []) { [unowned self] in
                show(.chat)
                if let chat = page(.chat) as? ChatPage { body(chat) }
            }
        }
        Actions.add("open-page-window", toWindow: window, application: context.application, accelerators: ["<Control><Shift>n"]) { [unowned self] in
            PageWindow(context: context, kind: currentKind).present()
        }
    }

    private static func mainMenuButton() -> Widget {
        UI.menuButton(
            icon: "open-menu-symbolic", label: L("Main menu"),
            items: [
                (L("_Preferences"), "app.preferences"), (L("_Add Server…"), "app.add-server"), (L("_Change Address…"), "app.change-server"),
                (L("E_xport All Conversations as JSON…"), "win.export-history-json"),
                (L("Export All Conversations as _Markdown…"), "win.export-history-markdown"),
                (L("_Import History…"), "win.import-history"),
                (L("_Forget Server…"), "app.sign-out"), (L("_Keyboard Shortcuts"), "app.shortcuts"),
                (L("_About BuilderOS"), "app.about"), (L("_Quit"), "app.quit"),
            ])
    }

    private static func pageMenuButton() -> Widget {
        UI.menuButton(
            icon: "view-more-symbolic", label: L("Page menu"),
            items: [
                (L("Open in New _Window"), "win.open-page-window"), (L("_Refresh"), "win.refresh"),
            ])
    }
}
