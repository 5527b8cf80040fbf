import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The web view of the Preview page with its toolbar (back, forward, reload/stop, title and address,
/// Open in Browser), a progress bar and the error state. Made the first time a page is opened, which
/// is when WebKit is loaded into the process; before that the app has paid nothing for it.
@MainActor
final class PreviewBrowser {
    let widget: Widget
    /// Called when the title or the address changes (the page shows which card is active).
    var onLocationChange: (() -> Void)?
    private let view: WebView
    private let stack = UI.stack()
    private let back: Widget
    private let forward: Widget
    private let reloadStop: Widget
    private let title = UI.label("", classes: [Style.label], wrap: false)
    private let address = UI.label("", classes: [Style.caption, Style.dim, Style.mono], wrap: false)
    private let progress = gtk_progress_bar_new()!
    private let errorMessage = UI.label("", classes: [Style.body, Style.dim], xalign: 0.5)
    private var host: String
    private var requested: String?

    /// nil when WebKit cannot be loaded (the page then explains why).
    static func make(host: String) -> PreviewBrowser? {
        WebView.load() == nil ? PreviewBrowser(host: host) : nil
    }

    private init(host: String) {
        self.host = host
        let box = WeakBox<PreviewBrowser>()
        view = WebView(
            policy: { uri, newWindow in box.value?.allow(uri, newWindow: newWindow) ?? false },
            events: { event in box.value?.handle(event) })
        back = PageLayout.iconButton("go-previous-symbolic", label: L("Back")) { box.value?.view.goBack() }
        forward = PageLayout.iconButton("go-next-symbolic", label: L("Forward")) { box.value?.view.goForward() }
        reloadStop = PageLayout.iconButton("view-refresh-symbolic", label: L("Reload")) { box.value?.reloadOrStop() }
        widget = UI.vbox()
        let openOutside = UI.button(L("Open in _Browser"), classes: [Style.secondaryButton]) { box.value?.openInBrowser() }
        [
            (back, "preview-back"), (forward, "preview-forward"), (reloadStop, "preview-reload"), (openOutside, "preview-open-browser"),
            (title, "preview-title"), (address, "preview-address"),
        ].forEach { gtk_widget_set_name($0.0, $0.1) }
        for label in [title, address] {
            gtk_label_set_ellipsize(OpaquePointer(label), PANGO_ELLIPSIZE_END)
            gtk_label_set_selectable(OpaquePointer(label), 0)
        }
        let titles = UI.vbox([title, address])
        gtk_widget_set_hexpand(titles, 1)
        gtk_widget_set_valign(titles, GTK_ALIGN_CENTER)
        let toolbar = UI.hbox(
            spacing: Style.gapTiny + Style.gapHairline, classes: [Style.previewToolbar], [back, forward, reloadStop, titles, openOutside])
        UI.addClasses(progress, ["osd"])
        gtk_widget_set_name(progress, "preview-progress")

        gtk_widget_set_vexpand(view.widget, 1)
        gtk_widget_set_hexpand(view.widget, 1)
        gtk_widget_set_name(view.widget, "preview-web-view")
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(OpaquePointer(overlay), view.widget)
        gtk_widget_set_valign(progress, GTK_ALIGN_START)
        gtk_overlay_add_overlay(OpaquePointer(overlay), progress)
        Accessibility.setLabel(overlay, L("Preview"))
        UI.addPage(stack, overlay, name: "web", label: L("Preview"))
        UI.addPage(stack, errorState(box), name: "error", label: L("Preview"))
        gtk_widget_set_vexpand(stack, 1)
        UI.append(widget, toolbar)
        UI.append(widget, stack)
        gtk_widget_set_name(widget, "preview-browser")
        box.value = self
        view.onChange(of: "title") { [weak self] in self?.showLocation() }
        view.onChange(of: "uri") { [weak self] in self?.showLocation() }
        view.onChange(of: "estimated-load-progress") { [weak self] in self?.showProgress() }
        // A browser's keys: Alt+Left/Right go back and forward, Escape stops a load.
        Signals.onKeyPressed(widget) { [weak self] key, modifiers in
            guard let self else { return false }
            let alt = modifiers & GDK_ALT_MASK.rawValue != 0
            switch key {
            case 0xff51 where alt: view.goBack()  // GDK_KEY_Left
            case 0xff53 where alt: view.goForward()  // GDK_KEY_Right
            case Keys.escape where view.isLoading: view.stop()
            default: return false
            }
            return true
        }
        Lifetime.tie(self, to: widget)
        showProgress()
        updateButtons()
    }

    /// The design's error state: what failed, why, and what to do.
    private func errorState(_ box: WeakBox<PreviewBrowser>) -> Widget {
        let icon = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        gtk_image_set_pixel_size(OpaquePointer(icon), Layout.px("preview-error-icon"))
        UI.addClasses(icon, [Style.dim])
        let heading = UI.label(L("Can’t show this page"), classes: [Style.title], xalign: 0.5)
        gtk_widget_set_name(errorMessage, "preview-error")
        gtk_label_set_justify(OpaquePointer(errorMessage), GTK_JUSTIFY_CENTER)
        let retry = UI.button(L("_Try Again"), classes: [Style.suggested]) { box.value?.retry() }
        gtk_widget_set_name(retry, "preview-retry")
        UI.align(retry, h: GTK_ALIGN_CENTER)
        let column = UI.vbox(spacing: Style.gap, [icon, heading, errorMessage, retry])
        UI.align(column, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_CENTER)
        UI.size(column, width: Layout.px("preview-error-column"))
        return column
    }

    /// The address shown now (or the one that failed), for the active card and Open in Browser.
    var currentURI: String? {
        gtk_stack_get_visible_child_name(OpaquePointer(stack)).map { String(cString: $0) } == "error" ? requested : (view.uri ?? requested)
    }
    var pageTitle: String? { view.title }
    var isShowingError: Bool { gtk_stack_get_visible_child_name(OpaquePointer(stack)).map { String(cString: $0) } == "error" }

    func open(_ uri: String, host: String) {
        self.host = host
        requested = uri
        gtk_stack_set_visible_child_name(OpaquePointer(stack), "web")
        view.load(uri: uri)
        showLocation()
    }

    func reload() { view.reload() }
    func goBack() { view.goBack() }
    func goForward() { view.goForward() }

    private func retry() {
        guard let requested else { return }
        open(requested, host: host)
    }

    private func reloadOrStop() {
        if view.isLoading { view.stop() } else if isShowingError { retry() } else { view.reload() }
    }

    private func openInBrowser() {
        guard let uri = currentURI else { return }
        if let problem = Browser.open(uri) {
            showError(L("No web browser could be opened for %@ (%@).", uri, problem))
        }
    }

    private func allow(_ uri: String, newWindow: Bool) -> Bool {
        switch PreviewNavigation.decide(uri: uri, previewHost: host) {
        case .inside:
            guard newWindow else { return true }
            // target=_blank on the same host: shown here, there are no other windows.
            DispatchQueue.main.async { [weak self] in self?.view.load(uri: uri) }
            return false
        case .browser:
            Browser.open(uri)
            return false
        case .refuse:
            return false
        }
    }

    private func handle(_ event: WebView.Event) {
        switch event {
        case .started, .redirected: requested = view.uri ?? requested
        case .committed:
            gtk_stack_set_visible_child_name(OpaquePointer(stack), "web")
            showLocation()
        case .finished: break
        case .failed(let uri, let domain, let code, let message):
            guard let failure = Self.failure(domain: domain, code: code, message: message) else { break }
            requested = uri.isEmpty ? requested : uri
            showError(failure.message(url: requested ?? uri))
        case .processEnded:
            showError(PreviewLoadFailure.other(L("the page’s renderer stopped")).message(url: requested ?? ""))
        }
        showProgress()
        updateButtons()
    }

    /// nil for failures that are no failure to the user: a load they stopped or replaced.
    static func failure(domain: String, code: Int, message: String) -> PreviewLoadFailure? {
        switch (domain, code) {
        case ("WebKitNetworkError", 302), ("WebKitPolicyError", 102), ("WebKitPolicyError", 103): return nil
        case ("g-io-error-quark", 39): return .refused
        case ("g-io-error-quark", 24): return .timedOut
        case ("g-resolver-error-quark", _): return .hostNotFound
        case ("g-tls-error-quark", _): return .tls
        default: return .other(message)
        }
    }

    private func showError(_ text: String) {
        UI.setText(errorMessage, text)
        gtk_stack_set_visible_child_name(OpaquePointer(stack), "error")
        showLocation()
    }

    private func showLocation() {
        let uri = currentURI ?? ""
        // After a failed load the view still holds the previous page's title: name the failed address instead.
        UI.setText(title, isShowingError ? L("Not loaded") : (view.title ?? uri))
        UI.setText(address, uri)
        Tooltip.set(address, uri)
        onLocationChange?()
    }

    private func showProgress() {
        let loading = view.isLoading
        UI.setVisible(progress, loading)
        gtk_progress_bar_set_fraction(OpaquePointer(progress), max(view.progress, 0.05))
        gtk_button_set_icon_name(gtkCast(reloadStop, to: GtkButton.self), loading ? "process-stop-symbolic" : "view-refresh-symbolic")
        let label = loading ? L("Stop") : L("Reload")
        Tooltip.set(reloadStop, label)
        Accessibility.setLabel(reloadStop, label)
    }

    private func updateButtons() {
        UI.setSensitive(back, view.canGoBack)
        UI.setSensitive(forward, view.canGoForward)
    }
}
