import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// One terminal tab: a VTE view fed from its `TerminalSession`, and a banner over it while the
/// connection is not live ("Reconnecting…", "Disconnected — Reconnect", "The shell has ended").
/// The view keeps its scrollback across reconnects.
@MainActor
final class TerminalTab {
    static let scrollback = 10_000

    let profile: TerminalProfile
    let widget: Widget
    let view: TerminalView
    let session: TerminalSession
    /// The tab's label in the notebook.
    let label = UI.label("", classes: [Style.label], wrap: false)
    var onStateChange: (() -> Void)?
    private let banner = UI.label("", classes: [Style.label], wrap: false)
    private let bannerButton: Widget
    private let bannerBox: Widget
    /// Output not shown yet, handed to VTE a helping per parsing pass (see `TerminalOutputPacer`).
    private var pacer = TerminalOutputPacer()
    private var helpingsFed = 0

    init(profile: TerminalProfile, startCommand: String, connect: @escaping TerminalSession.Connect) {
        self.profile = profile
        session = TerminalSession(startCommand: startCommand, connect: connect)
        let box = WeakBox<TerminalTab>()
        view = TerminalView(scrollback: Self.scrollback) { [session] bytes in session.send(bytes) }
        bannerButton = UI.button(L("_Reconnect"), classes: [Style.suggested]) { box.value?.session.start() }
        bannerBox = UI.hbox(spacing: Style.gapSmall, classes: [Style.notice], [banner, UI.spacer(vertical: false), bannerButton])
        gtk_widget_set_name(bannerBox, "terminal-banner")
        gtk_widget_set_name(bannerButton, "terminal-reconnect")
        UI.margins(bannerBox, top: Style.gapSmall, bottom: Style.gapSmall, start: Style.gapSmall, end: Style.gapSmall)
        gtk_widget_set_vexpand(view.widget, 1)
        gtk_widget_set_hexpand(view.widget, 1)
        gtk_widget_set_name(view.widget, "terminal-view")
        Accessibility.setLabel(view.widget, L("%@ terminal", profile.title))
        // Above the terminal, not over it: the banner must not hide the last lines the user saw.
        widget = UI.vbox([bannerBox, view.widget])
        box.value = self
        UI.setText(label, profile.title)
        MainLoopClock.install()
        session.output.add(owner: self) { [weak self] data in self?.receive(data) }
        Signals.connect(UnsafeMutableRawPointer(view.widget), "contents-changed") { box.value?.vteFinishedPass() }
        session.states.add(owner: self) { [weak self] _ in self?.showState() }
        addLinkClicks()
        Lifetime.tie(self, to: widget)
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [session] in session.stop() }
        Signals.connect(UnsafeMutableRawPointer(view.widget), "map") { [weak self] in self?.reportSize() }
        showState()
        session.start()
    }

    /// Output at full speed (`yes`, a build log) must not hold the main loop: VTE gets one helping per
    /// parsing pass, sized so that a pass stays within the pacer's budget; the rest waits here (at most
    /// the connection's receive window: the socket is not read further until it is shown).
    private func receive(_ data: Data) {
        pacer.receive(data)
        feedNext()
    }

    private func feedNext() {
        guard let helping = pacer.nextHelping() else { return }
        view.feed(helping)
        session.shown(helping.count)
        // A helping that changes nothing on screen brings no `contents-changed`: then go on after a moment.
        helpingsFed += 1
        let fed = helpingsFed
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { [weak self] in
            guard let self, self.helpingsFed == fed, self.pacer.awaitingPass else { return }
            self.pacer.passTimedOut()
            self.feedNext()
        }
    }

    /// Emitted inside VTE's pass, right after it parsed what it had: the time since this main-loop
    /// iteration began is the pass's cost. The next helping goes from the next iteration, not from
    /// inside VTE's signal.
    private func vteFinishedPass() {
        guard pacer.awaitingPass else { return }
        pacer.passFinished(took: MainLoopClock.secondsIntoIteration)
        DispatchQueue.main.async { [weak self] in self?.feedNext() }
    }

    /// Tells the session the view's size in cells (after a window resize, a zoom, a tab switch); the
    /// session sends only a changed size, and sends it again after every reconnect.
    func reportSize() {
        guard view.rows > 0, view.columns > 0 else { return }
        session.resize(rows: view.rows, cols: view.columns)
    }

    var isConnected: Bool { session.state.isLive }

    private func showState() {
        let (text, button): (String?, String?) =
            switch session.state {
            case .connecting: (L("Connecting…"), nil)
            case .connected: (nil, nil)
            case .reconnecting: (L("Reconnecting…"), nil)
            case .disconnected(let error): (L("Disconnected — %@", error.userMessage), L("_Reconnect"))
            case .ended: (L("The shell has ended."), L("_New Shell"))
            }
        UI.setText(banner, text ?? "")
        UI.setVisible(bannerBox, text != nil)
        UI.setVisible(bannerButton, button != nil)
        if let button { UI.setButtonLabel(bannerButton, button) }
        UI.setText(label, session.state.isLive || text == nil ? profile.title : "\(profile.title) · \(text!)")
        onStateChange?()
    }

    /// Ctrl+click on a web address opens it in the browser.
    private func addLinkClicks() {
        Signals.onControlClick(view.widget) { [weak self] x, y in
            guard let link = self?.view.link(atX: x, y: y) else { return }
            Browser.open(link.contains("://") ? link : "http://" + link)
        }
    }
}
