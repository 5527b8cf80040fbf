import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Terminal: shells on the server machine in tabs (Shell, Jarvis, Codex), each a VTE view over the
/// server's terminal socket. VTE is loaded when the first tab opens. A server without the terminal
/// route gets a plain explanation instead of tabs.
///
/// Keys (while the page has focus): Ctrl+Shift+T new tab, Ctrl+Shift+W close tab, Ctrl+PageUp/Down
/// switch, Ctrl+Shift+C/V copy/paste, Ctrl+plus/minus/0 zoom, Ctrl+Shift+F find.
@MainActor
final class TerminalPage: Page {
    let widget: Widget
    private let context: PageContext
    private let window: @MainActor () -> Widget?
    private let notebook = gtk_notebook_new()!
    private let content = UI.stack()
    private let unavailableText = UI.label("", classes: [Style.body, Style.dim], xalign: 0.5)
    private let findBar = gtk_search_bar_new()!
    private let findEntry = gtk_search_entry_new()!
    private var tabs: [TerminalTab] = []
    private var fontScale = 1.0

    init(context: PageContext, window: @escaping @MainActor () -> Widget?) {
        self.context = context
        self.window = window
        widget = UI.vbox()
        gtk_widget_set_name(widget, "terminal-page")
        build()
        Lifetime.tie(self, to: widget)
        context.appearance?.observe { [weak self] _ in self?.applyColors() }
        Signals.onKeyPressed(widget) { [weak self] key, modifiers in self?.handleKey(key, modifiers) ?? false }
        // The window's size changes reach the shell: after the surface's new layout, the view has its cells.
        Signals.connect(UnsafeMutableRawPointer(widget), "realize") { [weak self] in
            guard let self, let native = gtk_widget_get_native(self.widget), let surface = gtk_native_get_surface(native) else { return }
            Signals.connect(
                UnsafeMutableRawPointer(surface), "layout",
                withTwoArguments: { [weak self] _, _ in
                    DispatchQueue.main.async { self?.currentTab?.reportSize() }
                })
        }
    }

    private func build() {
        let newTab = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(newTab), "tab-new-symbolic")
        Tooltip.set(newTab, L("New Tab (Ctrl+Shift+T)"))
        Accessibility.setLabel(newTab, L("New Tab"))
        gtk_widget_set_name(newTab, "terminal-new-tab")
        let menu = UI.vbox(spacing: Style.gapHairline)
        for profile in TerminalProfile.allCases {
            let item = UI.button(profile.title, classes: ["flat"]) { [unowned self] in
                gtk_menu_button_popdown(OpaquePointer(newTab))
                open(profile)
            }
            gtk_widget_set_name(item, "terminal-new-\(profile.rawValue)")
            UI.append(menu, item)
        }
        let popover = gtk_popover_new()!
        gtk_popover_set_child(gtkCast(popover, to: GtkPopover.self), menu)
        gtk_menu_button_set_popover(OpaquePointer(newTab), popover)

        let notebookView = OpaquePointer(notebook)
        gtk_notebook_set_scrollable(notebookView, 1)
        gtk_notebook_set_show_border(notebookView, 0)
        gtk_notebook_set_action_widget(notebookView, newTab, GTK_PACK_END)
        gtk_widget_set_vexpand(notebook, 1)
        gtk_widget_set_name(notebook, "terminal-tabs")
        Signals.connect(
            UnsafeMutableRawPointer(notebook), "switch-page",
            withTwoArguments: { [weak self] _, _ in
                DispatchQueue.main.async { self?.currentTab?.reportSize() }
            })

        gtk_search_bar_set_child(OpaquePointer(findBar), findEntry)
        gtk_search_bar_connect_entry(OpaquePointer(findBar), OpaquePointer(findEntry))
        gtk_search_bar_set_show_close_button(OpaquePointer(findBar), 1)
        Accessibility.setLabel(findEntry, L("Find in the terminal"))
        gtk_widget_set_name(findEntry, "terminal-find")
        Properties.setString(UnsafeMutableRawPointer(findEntry), "placeholder-text", L("Find in scrollback"))
        Signals.connect(UnsafeMutableRawPointer(findEntry), "search-changed") { [weak self] in self?.find(forward: false) }
        Signals.connect(UnsafeMutableRawPointer(findEntry), "activate") { [weak self] in self?.find(forward: false) }
        Signals.connect(UnsafeMutableRawPointer(findEntry), "next-match") { [weak self] in self?.find(forward: true) }
        Signals.connect(UnsafeMutableRawPointer(findEntry), "previous-match") { [weak self] in self?.find(forward: false) }

        let terminals = UI.vbox([findBar, notebook])
        let start = UI.button(L("Open a _Shell"), classes: [Style.suggested]) { [unowned self] in open(.shell) }
        gtk_widget_set_name(start, "terminal-start")
        UI.addPage(content, terminals, name: "tabs", label: L("Terminal"))
        UI.addPage(
            content,
            PageLayout.emptyState(
                icon: "utilities-terminal-symbolic", title: L("Terminal"),
                text: UI.label(
                    L("A shell on the server machine, in your home folder there, or Jarvis and Codex in their own tabs."),
                    classes: [Style.body, Style.dim], xalign: 0.5), button: start), name: "empty", label: L("Terminal"))
        UI.addPage(
            content, PageLayout.emptyState(icon: "utilities-terminal-symbolic", title: L("Terminals are not available"), text: unavailableText),
            name: "unavailable", label: L("Terminals are not available"))
        gtk_widget_set_vexpand(content, 1)
        UI.append(widget, content)
        gtk_stack_set_visible_child_name(OpaquePointer(content), "empty")
    }

    // MARK: Page

    func shown() {
        if tabs.isEmpty, visible == "empty" { open(.shell) }
    }

    private var visible: String? { gtk_stack_get_visible_child_name(OpaquePointer(content)).map { String(cString: $0) } }

    // MARK: Tabs

    func open(_ profile: TerminalProfile) {
        if let problem = TerminalView.load() {
            UI.setText(
                unavailableText,
                String(
                    format: L("BuilderOS Desktop shows terminals with VTE, which is not installed (Debian package libvte-2.91-gtk4-0: %@)."), problem)
            )
            return gtk_stack_set_visible_child_name(OpaquePointer(content), "unavailable")
        }
        let command = context.serverSettings?.terminalCommands[profile] ?? profile.defaultCommand
        let tab = TerminalTab(profile: profile, startCommand: command, connect: context.session.terminalConnector())
        tab.view.fontScale = fontScale
        tab.onStateChange = { [weak self, weak tab] in
            guard let self, let tab else { return }
            if case .disconnected(.notAvailableOnServer) = tab.session.state { self.showUnavailable() }
        }
        tabs.append(tab)
        let close = PageLayout.iconButton("window-close-symbolic", label: L("Close Tab (Ctrl+Shift+W)")) { [weak self, weak tab] in
            if let tab { self?.askToClose(tab) }
        }
        UI.addClasses(close, ["flat"])
        let header = UI.hbox(spacing: Style.gapTiny, [tab.label, close])
        gtk_widget_set_name(header, "terminal-tab-\(tabs.count)")
        let index = gtk_notebook_append_page(OpaquePointer(notebook), tab.widget, header)
        gtk_notebook_set_tab_reorderable(OpaquePointer(notebook), tab.widget, 1)
        gtk_stack_set_visible_child_name(OpaquePointer(content), "tabs")
        gtk_notebook_set_current_page(OpaquePointer(notebook), index)
        applyColors()
        gtk_widget_grab_focus(tab.view.widget)
    }

    private func showUnavailable() {
        UI.setText(
            unavailableText,
            L(
                "This server does not offer terminals (its /api/terminal/ws answers “not found”). Terminals need the BuilderOS system server; the reference server offers one when started with --enable-terminal."
            ))
        for tab in tabs { tab.session.stop() }
        while gtk_notebook_get_n_pages(OpaquePointer(notebook)) > 0 { gtk_notebook_remove_page(OpaquePointer(notebook), -1) }
        tabs = []
        gtk_stack_set_visible_child_name(OpaquePointer(content), "unavailable")
    }

    private var currentTab: TerminalTab? {
        let index = gtk_notebook_get_current_page(OpaquePointer(notebook))
        guard index >= 0, let page = gtk_notebook_get_nth_page(OpaquePointer(notebook), index) else { return nil }
        return tabs.first { $0.widget == page }
    }

    /// Closing a connected tab ends its shell: ask first.
    private func askToClose(_ tab: TerminalTab) {
        guard tab.isConnected, let parent = window() else { return close(tab) }
        ConfirmDialog.ask(
            parent: parent, title: L("Close this terminal?"),
            body: L("The shell on the server and everything running in it will end."),
            cancel: L("_Cancel"), confirm: L("Close _Terminal"), destructive: true, name: "terminal-close-confirm"
        ) { [weak self] in
            self?.close(tab)
        }
    }

    private func close(_ tab: TerminalTab) {
        tab.session.stop()
        let index = gtk_notebook_page_num(OpaquePointer(notebook), tab.widget)
        if index >= 0 { gtk_notebook_remove_page(OpaquePointer(notebook), index) }
        tabs.removeAll { $0 === tab }
        if tabs.isEmpty { gtk_stack_set_visible_child_name(OpaquePointer(content), "empty") }
    }

    private func applyColors() {
        let theme = context.appearance?.theme ?? .light
        let colors = TerminalPalette.colors(theme, tokens: DesignTokens.shipped)
        for tab in tabs { tab.view.setColors(foreground: colors.foreground, background: colors.background, palette: colors.palette) }
    }

    private func zoom(_ scale: Double) {
        fontScale = min(max(scale, 0.5), 3)
        for tab in tabs { tab.view.fontScale = fontScale }
        DispatchQueue.main.async { [weak self] in self?.currentTab?.reportSize() }
    }

    private func find(forward: Bool) {
        guard let tab = currentTab else { return }
        let text = UI.text(of: findEntry)
        tab.view.search(text)
        let found = forward ? tab.view.findNext() : tab.view.findPrevious()
        // Nothing found: the entry says so, as GNOME's own find bars do.
        UI.setClass(findEntry, "error", !found && !text.isEmpty)
    }

    /// The page's keys; everything else goes to the terminal.
    private func handleKey(_ key: UInt32, _ modifiers: UInt32) -> Bool {
        let ctrl = modifiers & GDK_CONTROL_MASK.rawValue != 0, shift = modifiers & GDK_SHIFT_MASK.rawValue != 0
        guard ctrl else { return false }
        switch (key | 0x20, shift) {  // letters in lower case
        case (0x74, true): open(.shell)  // T
        case (0x77, true): if let tab = currentTab { askToClose(tab) }  // W
        case (0x63, true): currentTab?.view.copy()  // C
        case (0x76, true): currentTab?.view.paste()  // V
        case (0x66, true):  // F
            gtk_search_bar_set_search_mode(OpaquePointer(findBar), 1)
            gtk_widget_grab_focus(findEntry)
        default:
            switch key {
            case 0xff55: gtk_notebook_prev_page(OpaquePointer(notebook))  // Page_Up
            case 0xff56: gtk_notebook_next_page(OpaquePointer(notebook))  // Page_Down
            case 0x2b, 0x3d, 0xffab: zoom(fontScale * 1.1)  // plus, equal, KP_Add
            case 0x2d, 0xffad: zoom(fontScale / 1.1)  // minus, KP_Subtract
            case 0x30, 0xffb0: zoom(1)  // 0, KP_0
            default: return false
            }
        }
        return true
    }

    /// The tray's New Terminal.
    func newShell() { open(.shell) }
}
