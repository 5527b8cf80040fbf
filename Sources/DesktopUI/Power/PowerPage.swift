import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Sleep and wake the server machine. Sleep asks first, runs once at a time and gives up after
/// 10 s. Wake sends a Wake-on-LAN packet from this computer when the MAC address is set in the
/// preferences and then watches for the server; otherwise it shows the server's instructions.
@MainActor
final class PowerPage: Page {
    let widget: Widget
    private let context: PageContext
    private let window: @MainActor () -> Widget?
    private let sleepButton: Widget
    private let sleepReason = UI.label("", classes: [Style.label, Style.dim])
    private let sleepSpinner = Spinner.make(label: L("Asking the server to sleep…"))
    private let sleepResult = UI.label("", classes: [Style.body])
    private let wakeButton: Widget
    private let wakeReason = UI.label("", classes: [Style.label, Style.dim])
    private let wakeSpinner = Spinner.make(label: L("Waiting"))
    private let wakeResult = UI.label("", classes: [Style.body], selectable: true)
    private var sleeping = false
    private var waking = false
    private var wakeTask: Task<Void, Never>?

    init(context: PageContext, window: @escaping @MainActor () -> Widget?) {
        self.context = context
        self.window = window
        sleepButton = UI.button(L("_Sleep Server…"), classes: [Style.destructive]) {}
        wakeButton = UI.button(L("_Wake Server"), classes: [Style.suggested]) {}
        gtk_widget_set_name(sleepButton, "sleep-button")
        gtk_widget_set_name(wakeButton, "wake-button")
        gtk_widget_set_name(sleepResult, "sleep-result")
        gtk_widget_set_name(wakeResult, "wake-result")
        gtk_widget_set_name(sleepReason, "sleep-reason")
        gtk_widget_set_name(wakeReason, "wake-reason")
        [sleepButton, wakeButton].forEach { UI.align($0, h: GTK_ALIGN_START) }
        let sleepCard = PageLayout.card(
            L("Sleep"),
            [
                UI.label(L("Puts the server machine to sleep. Chats disconnect until it wakes."), classes: [Style.body]),
                UI.hbox(spacing: Style.gapSmall, [sleepButton, sleepSpinner]), sleepReason, sleepResult,
            ])
        let wakeCard = PageLayout.card(
            L("Wake"),
            [
                UI.label(
                    L("Wakes the server machine with a Wake-on-LAN packet from this computer, which must be on the same network."),
                    classes: [Style.body]),
                UI.hbox(spacing: Style.gapSmall, [wakeButton, wakeSpinner]), wakeReason, wakeResult,
            ])
        let (root, column) = PageLayout.column(title: L("Power"))
        UI.append(column, sleepCard)
        UI.append(column, wakeCard)
        widget = root
        gtk_widget_set_name(widget, "power-page")
        Signals.connect(UnsafeMutableRawPointer(sleepButton), "clicked") { [unowned self] in askSleep() }
        Signals.connect(UnsafeMutableRawPointer(wakeButton), "clicked") { [unowned self] in wake() }
        context.session.connection.changes.add(owner: self) { [weak self] _ in self?.updateAvailability() }
        updateAvailability()
        Lifetime.tie(self, to: widget)
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [unowned self] in wakeTask?.cancel() }
    }

    func shown() { updateAvailability() }

    private var wakeOnLAN: WakeOnLAN? {
        guard let s = context.serverSettings, let mac = s.wakeMAC, !mac.isEmpty else { return nil }
        return try? WakeOnLAN(mac: mac, broadcast: s.wakeBroadcast)
    }

    /// Enables each action only when it can work, and says why not (the rule: `PowerAvailability`).
    private func updateAvailability() {
        let power = PowerAvailability(snapshot: context.session.connection.snapshot, wakeOnLANConfigured: wakeOnLAN != nil)
        UI.setSensitive(sleepButton, power.canSleep && !sleeping)
        UI.setText(sleepReason, power.sleepBlocked ?? "")
        UI.setVisible(sleepReason, power.sleepBlocked != nil)
        UI.setSensitive(wakeButton, power.canWake && !waking)
        let wakeText = power.wakeBlocked ?? power.wakeNote ?? ""
        UI.setText(wakeReason, wakeText)
        UI.setVisible(wakeReason, !wakeText.isEmpty)
    }

    // MARK: Sleep

    func askSleep() {
        guard !sleeping, let parent = window() else { return }
        ConfirmDialog.ask(
            parent: parent, title: L("Put the server to sleep?"),
            body: L("The server machine goes to sleep and BuilderOS disconnects until it wakes up."),
            cancel: L("_Cancel"), confirm: L("_Sleep"), destructive: true, name: "sleep-confirm"
        ) { [weak self] in
            self?.sleep()
        }
    }

    private func sleep() {
        guard !sleeping else { return }
        sleeping = true
        updateAvailability()
        Spinner.setSpinning(sleepSpinner, true)
        UI.setText(sleepResult, L("Asking the server to sleep…"))
        let client = context.session.api(timeout: PowerRequests.timeout)
        Task { [weak self] in
            let text: String
            var failed = false
            do throws(BuilderOSError) {
                let reply = try await client.sleep()
                self?.context.session.connection.noteSystemRoute(Result<SleepReply, BuilderOSError>.success(reply))
                text = reply.message ?? L("The server is going to sleep.")
            } catch {
                failed = true
                self?.context.session.connection.noteSystemRoute(Result<Void, BuilderOSError>.failure(error))
                text = error.sentenceWithFix
            }
            guard let self else { return }
            self.sleeping = false
            Spinner.setSpinning(self.sleepSpinner, false)
            UI.setText(self.sleepResult, text)
            UI.setClass(self.sleepResult, Style.errorText, failed)
            self.updateAvailability()
            // The answer can take a while: say it on the desktop when the window is in the background.
            if let window = self.window(), gtk_window_is_active(gtkCast(window, to: GtkWindow.self)) == 0 {
                let server = self.context.settingsStore.load().server(at: self.context.session.server)?.id ?? ""
                DesktopNotifications(application: self.context.application, settingsStore: self.context.settingsStore).send(
                    .sleep, id: "sleep-\(server)", title: failed ? L("The server did not go to sleep") : L("The server is going to sleep"),
                    body: text, click: .server(server))
            }
        }
    }

    // MARK: Wake

    private func wake() {
        guard !waking else { return }
        if let wol = wakeOnLAN { wakeWithPacket(wol) } else { askServerHowToWake() }
    }

    private func wakeWithPacket(_ wol: WakeOnLAN) {
        do throws(WakeOnLANProblem) { try wol.send() } catch {
            UI.setText(wakeResult, error.message)
            UI.setClass(wakeResult, Style.errorText, true)
            return
        }
        waking = true
        updateAvailability()
        Spinner.setSpinning(wakeSpinner, true)
        UI.setClass(wakeResult, Style.errorText, false)
        UI.setText(wakeResult, L("Wake-up packet sent to %@. Waiting for the server to come back…", wol.broadcast))
        let client = context.session.api(timeout: WakeWatch.requestTimeout)
        let connection = context.session.connection
        wakeTask = Task { [weak self] in
            let awake = await WakeWatch.untilAwake { (try? await client.status()) != nil }
            guard let self, !Task.isCancelled else { return }
            if awake {
                UI.setText(self.wakeResult, L("The server is awake."))
                if connection.snapshot.indicator != .connected { connection.reconnect() }
            } else {
                UI.setText(
                    self.wakeResult, L("The server did not answer within two minutes. Check that Wake-on-LAN is enabled on the server machine."))
                UI.setClass(self.wakeResult, Style.errorText, true)
            }
            self.endWake()
        }
    }

    private func askServerHowToWake() {
        waking = true
        updateAvailability()
        Spinner.setSpinning(wakeSpinner, true)
        let client = context.session.api(timeout: PowerRequests.timeout)
        Task { [weak self] in
            var lines: [String]
            var failed = false
            do throws(BuilderOSError) {
                let reply = try await client.wake()
                self?.context.session.connection.noteSystemRoute(Result<WakeReply, BuilderOSError>.success(reply))
                lines = [reply.message].compactMap { $0 } + reply.instructions + [reply.help].compactMap { $0 }
                if lines.isEmpty { lines = [L("The server accepted the wake request.")] }
            } catch {
                failed = true
                self?.context.session.connection.noteSystemRoute(Result<Void, BuilderOSError>.failure(error))
                lines = [error.userMessage, error.fixIt].compactMap { $0 }
            }
            guard let self else { return }
            UI.setText(self.wakeResult, lines.joined(separator: "\n"))
            UI.setClass(self.wakeResult, Style.errorText, failed)
            self.endWake()
        }
    }

    private func endWake() {
        waking = false
        Spinner.setSpinning(wakeSpinner, false)
        updateAvailability()
    }
}
