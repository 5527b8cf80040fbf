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
    /// Output not shown yet, and what shows it a frame at a time.
    private var pending: [Data] = []
    private var feedScheduled = false
    private var feedGeneration = 0
    private var pacer: FrameCoalescer!

    init(profile: TerminalProfile, startCommand: String, connect: @escaping TerminalSession.Connect) {
        self.profile = profile
        session = TerminalSession(startCommand: startCommand, connect: connect)
        let box = WeakBox<TerminalTab>()
        view = TerminalView(scrollback: Self.scrollback) { [session] bytes in session.send(bytes) }
        bannerButton = UI.button(L("_Reconnect"), classes: [Style.suggested]) { box.value?.session.start() }
        bannerBox = UI.hbox(spacing: Style.gapSmall, classes: [Style.notice], [banner, UI.spacer(vertical: false), bannerButton])
        gtk_widget_set_name(bannerBox, "terminal-banner")
        gtk_widget_set_name(bannerButton, "terminal-reconnect")
        gtk_widget_set_valign(bannerBox, GTK_ALIGN_START)
        UI.margins(bannerBox, top: 8, start: 8, end: 8)
        gtk_widget_set_vexpand(view.widget, 1)
        gtk_widget_set_hexpand(view.widget, 1)
        gtk_widget_set_name(view.widget, "terminal-view")
        Accessibility.setLabel(view.widget, String(format: L("%@ terminal"), profile.title))
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(OpaquePointer(overlay), view.widget)
        gtk_overlay_add_overlay(OpaquePointer(overlay), bannerBox)
        widget = overlay
        box.value = self
        UI.setText(label, profile.title)
        pacer = FrameCoalescer(widget: view.widget) { box.value?.feedPending() }
        session.onOutput = { [weak self] data in self?.receive(data) }
        session.onState = { [weak self] _ in self?.showState() }
        addLinkClicks()
        Lifetime.tie(self, to: widget)
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [session] in session.stop() }
        Signals.connect(UnsafeMutableRawPointer(view.widget), "map") { [weak self] in self?.reportSize() }
        showState()
        session.start()
    }

    /// Output at full speed (`yes`, a build log) must not hold the main loop: what arrives is shown
    /// at the next frame, at most `bytesPerFrame` a frame (adapted to how long VTE took), so the window keeps drawing and
    /// answering; the rest waits for the following frames.
    static let minimumBytesPerFrame = 8 * 1024
    static let maximumBytesPerFrame = 256 * 1024
    private var bytesPerFrame = 32 * 1024
    private var lastFeed: ContinuousClock.Instant?

    private func receive(_ data: Data) {
        pending.append(data)
        scheduleFeed()
    }

    /// The next helping at the next frame. A frame callback does not run while the view is unmapped (a
    /// tab in the background, or one unmapped mid-flood): a timer then takes over, ten helpings a second.
    private func scheduleFeed() {
        guard !feedScheduled else { return }
        feedScheduled = true
        feedGeneration += 1
        let generation = feedGeneration
        pacer.schedule()
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { [weak self] in
            guard let self, self.feedScheduled, self.feedGeneration == generation else { return }
            self.feedPending()
        }
    }

    private func feedPending() {
        guard feedScheduled else { return }
        feedScheduled = false
        // VTE queues what it is fed and parses it in its own main-loop source, all of it at once: so the
        // budget is bytes handed over per frame, not time spent handing them over. It adapts: halved
        // after a frame that came late (VTE took too long on the last helping), grown while frames are on time.
        let now = ContinuousClock.now
        if let last = lastFeed {
            bytesPerFrame = now - last > .milliseconds(30) ? max(Self.minimumBytesPerFrame, bytesPerFrame / 2)
                : min(Self.maximumBytesPerFrame, bytesPerFrame + Self.minimumBytesPerFrame)
        }
        var budget = bytesPerFrame
        while budget > 0, !pending.isEmpty {
            let first = pending[0]
            let slice = first.prefix(budget)
            if slice.count == first.count { pending.removeFirst() } else { pending[0] = first.dropFirst(slice.count) }
            view.feed(slice)
            budget -= slice.count
        }
        guard !pending.isEmpty else { lastFeed = nil; return }
        lastFeed = now
        scheduleFeed()
    }

    /// Tells the session the view's size in cells (after a window resize, a zoom, a tab switch); the
    /// session sends only a changed size, and sends it again after every reconnect.
    func reportSize() {
        guard view.rows > 0, view.columns > 0 else { return }
        session.resize(rows: view.rows, cols: view.columns)
    }

    var isConnected: Bool { session.state.isLive }

    private func showState() {
        let (text, button): (String?, String?) = switch session.state {
        case .connecting: (L("Connecting…"), nil)
        case .connected: (nil, nil)
        case .reconnecting: (L("Reconnecting…"), nil)
        case .disconnected(let error): (String(format: L("Disconnected — %@"), error.userMessage), L("_Reconnect"))
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
