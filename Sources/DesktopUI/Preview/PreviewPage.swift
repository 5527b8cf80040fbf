import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Localhost Preview: the server machine's dev servers. The five quick links and a custom port,
/// each card saying whether something answers there (probed when the page is shown and on F5),
/// and the chosen one in an embedded web view. A server reached through a tunnel gets a plain
/// explanation and a way to set a preview host instead.
@MainActor
final class PreviewPage: Page {
    let widget: Widget
    private let context: PageContext
    private let links = QuickLink.all
    private var cards: [QuickLinkCard] = []
    private let board = PreviewProbeBoard(prober: PortProbe())
    private let hostLabel = UI.label("", classes: [Style.headline], wrap: false)
    private let stateLabel = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
    private let spinner = Spinner.make(label: L("Checking the dev servers…"))
    private let portEntry: Widget
    private let goButton: Widget
    private let portProblem = UI.label("", classes: [Style.label, Style.errorText])
    private let linkBox = UI.flowBox(minPerLine: 2, maxPerLine: 5, spacing: UInt32(Style.gapSmall))
    private let content = UI.stack()
    private let tunnelText = UI.label("", classes: [Style.body, Style.dim], xalign: 0.5)
    private let unavailableText = UI.label("", classes: [Style.body, Style.dim], xalign: 0.5)
    private var browser: PreviewBrowser?
    private var host: PreviewHost?
    private var probing: Task<Void, Never>?

    init(context: PageContext, window: @escaping @MainActor () -> Widget?) {
        self.context = context
        let box = WeakBox<PreviewPage>()
        portEntry = UI.entry(
            placeholder: L("Custom port (e.g. 3001)"), onChange: { _ in box.value?.portChanged() },
            onActivate: { box.value?.openCustomPort() })
        goButton = UI.button(L("_Go"), classes: [Style.suggested]) { box.value?.openCustomPort() }
        widget = UI.vbox()
        box.value = self
        gtk_widget_set_name(widget, "preview-page")
        build()
        board.changes.add(owner: self) { [weak self] in self?.showProbes() }
        Lifetime.tie(self, to: widget)
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [unowned self] in probing?.cancel() }
        resolveHost()
        // A preview host typed in Preferences applies at once.
        if let id = context.serverSettings?.id {
            context.settingsStore.onChange(ofServer: id, .previewHost) { [weak self] in
                guard let self, gtk_widget_get_mapped(self.widget) != 0 else { return }
                self.shown()
            }
        }
    }

    private func build() {
        let icon = gtk_image_new_from_icon_name("network-workgroup-symbolic")!
        UI.addClasses(icon, [Style.link])
        gtk_widget_set_name(hostLabel, "preview-host")
        gtk_widget_set_name(stateLabel, "preview-state")
        let hostLine = UI.hbox(spacing: Style.gapTiny, [icon, hostLabel, spinner])
        let heading = UI.vbox(spacing: Style.gapHairline, [UI.label(L("Preview"), classes: [Style.title]), hostLine, stateLabel])
        gtk_widget_set_hexpand(heading, 1)
        let refreshButton = PageLayout.iconButton("view-refresh-symbolic", label: L("Refresh (F5)")) { [unowned self] in refresh() }
        gtk_widget_set_name(refreshButton, "preview-refresh")
        gtk_widget_set_valign(refreshButton, GTK_ALIGN_START)
        let header = UI.hbox(spacing: Style.gap, [heading, refreshButton])

        let flow = OpaquePointer(linkBox)
        gtk_widget_set_name(linkBox, "quick-links")
        Accessibility.setLabel(linkBox, L("Quick links"))
        for link in links {
            let card = QuickLinkCard(link: link) { [unowned self] in open(port: $0.port) }
            cards.append(card)
            gtk_flow_box_append(flow, card.widget)
        }

        gtk_widget_set_name(portEntry, "preview-port")
        gtk_editable_set_max_width_chars(OpaquePointer(portEntry), Layout.chars("port-entry"))
        gtk_entry_set_input_purpose(gtkCast(portEntry, to: GtkEntry.self), GTK_INPUT_PURPOSE_DIGITS)
        Accessibility.setLabel(portEntry, L("Custom port"))
        gtk_widget_set_name(goButton, "preview-go")
        UI.size(goButton, width: Layout.px("port-button"))
        gtk_widget_set_name(portProblem, "preview-port-problem")
        UI.setVisible(portProblem, false)
        let portRow = UI.hbox(spacing: Style.gapSmall, [portEntry, goButton, portProblem])

        let top = UI.vbox(spacing: Style.gap, [header, linkBox, portRow])
        UI.margins(top, top: Style.gap, bottom: Style.gap, start: Style.gapLarge, end: Style.gapLarge)
        UI.append(widget, top)
        UI.append(widget, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))

        UI.addPage(
            content,
            PageLayout.emptyState(
                icon: "web-browser-symbolic", title: L("Preview Localhost"),
                text: UI.label(
                    L("Select a quick link or enter a custom port to see a dev server of the server machine here."),
                    classes: [Style.body, Style.dim], xalign: 0.5)), name: "empty", label: L("Preview Localhost"))
        let setHost = UI.button(L("Set _Preview Host…"), classes: [Style.suggested]) { [unowned self] in context.activate("app.preferences") }
        gtk_widget_set_name(setHost, "preview-set-host")
        UI.addPage(
            content, PageLayout.emptyState(icon: "network-vpn-symbolic", title: L("Previews need a direct path"), text: tunnelText, button: setHost),
            name: "tunnel", label: L("Previews need a direct path"))
        UI.addPage(
            content, PageLayout.emptyState(icon: "dialog-warning-symbolic", title: L("Web previews are not available"), text: unavailableText),
            name: "unavailable", label: L("Web previews are not available"))
        gtk_widget_set_vexpand(content, 1)
        gtk_widget_set_name(content, "preview-content")
        UI.append(widget, content)
    }

    // MARK: Page

    func shown() {
        resolveHost()
        probeAgain()
    }

    /// The cards again, without reloading the page shown (coming back to the page).
    private func probeAgain() {
        probing?.cancel()
        guard let direct = host?.host else { return board.clear() }
        let ports = links.map(\.port)
        probing = Task { [weak self] in await self?.board.refresh(host: direct, ports: ports) }
    }

    /// F5: asks every port again, and reloads the page in the web view.
    func refresh() {
        probeAgain()
        if let browser, !browser.isShowingError, visibleContent == "browser" { browser.reload() }
    }

    // MARK: Host

    /// Reads the server and the preview host setting; the page follows whichever applies.
    private func resolveHost() {
        let resolved = PreviewHost.resolve(server: context.session.server, setting: context.serverSettings?.previewHost)
        guard resolved != host else { return }
        host = resolved
        let direct = resolved.host != nil
        cards.forEach { UI.setSensitive($0.widget, direct) }
        [portEntry, goButton].forEach { UI.setSensitive($0, direct) }
        switch resolved {
        case .direct(let name, let fromSetting):
            UI.setText(hostLabel, name)
            Accessibility.setLabel(hostLabel, L("Previewing %@", name))
            Tooltip.set(hostLabel, fromSetting ? L("The preview host set in Preferences") : L("The server’s address"))
            // A page of another host is not this host's: start again from the empty state.
            show("empty")
            showActiveCard()
        case .tunnelOnly(let serverHost):
            UI.setText(hostLabel, serverHost)
            UI.setText(
                tunnelText,
                String(
                    format: L(
                        "BuilderOS reaches your server through the tunnel %@, which carries only the BuilderOS API. Previews need a direct path to the server machine: a VPN such as Tailscale, or the same network. Enter the server machine’s address on it as the preview host."
                    ), serverHost))
            show("tunnel")
        }
        showProbes()
        portChanged()
    }

    private var visibleContent: String? {
        gtk_stack_get_visible_child_name(OpaquePointer(content)).map { String(cString: $0) }
    }

    private func show(_ name: String) { gtk_stack_set_visible_child_name(OpaquePointer(content), name) }

    private func showProbes() {
        let ports = links.map(\.port)
        let direct = host?.host != nil
        for card in cards { card.show(direct ? board.results[card.link.port] : nil) }
        UI.setText(stateLabel, direct ? board.summary(of: ports) : L("Reached through a tunnel"))
        Spinner.setSpinning(spinner, board.isProbing)
        UI.setVisible(spinner, board.isProbing)
    }

    // MARK: Opening a port

    private func portChanged() {
        let text = UI.text(of: portEntry)
        UI.setSensitive(goButton, host?.host != nil && !text.trimmingCharacters(in: .whitespaces).isEmpty)
        UI.setVisible(portProblem, false)
        UI.setClass(portEntry, "error", false)
    }

    private func openCustomPort() {
        do throws(PortInput.Problem) {
            open(port: try PortInput.parse(UI.text(of: portEntry)))
        } catch {
            UI.setText(portProblem, error.message)
            UI.setVisible(portProblem, true)
            UI.setClass(portEntry, "error", true)
        }
    }

    func open(port: Int) {
        guard let name = host?.host else { return }
        let url = PreviewHost.url(host: name, port: port)
        if browser == nil {
            guard let made = PreviewBrowser.make(host: name) else {
                UI.setText(
                    unavailableText,
                    String(
                        format: L(
                            "BuilderOS Desktop shows previews with WebKitGTK 6.0, which is not installed (Debian package libwebkitgtk-6.0-4). Open %@ in your browser instead."
                        ), url))
                return show("unavailable")
            }
            made.onLocationChange = { [weak self] in self?.showActiveCard() }
            UI.addPage(content, made.widget, name: "browser", label: L("Preview"))
            browser = made
        }
        show("browser")
        browser?.open(url, host: name)
        showActiveCard()
    }

    /// The card of the port shown in the web view is highlighted.
    private func showActiveCard() {
        let port = browser?.currentURI.flatMap { URLComponents(string: $0)?.port }
        let showing = visibleContent == "browser"
        for card in cards { card.setActive(showing && card.link.port == port) }
    }
}
