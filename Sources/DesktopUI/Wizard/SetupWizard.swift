import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The first-run setup: five steps in one window, driven by `SetupFlow`. Nothing is stored until
/// the connection test passes; then the key goes into the Secret Service and the address into the
/// settings (`Account.signIn`). Leaving early writes nothing.
@MainActor
public final class SetupWizard {
    public let window: Widget
    private var flow: SetupFlow
    private let account: Account
    private let replacing: String?
    private let onFinished: @MainActor (ServerAddress, String) -> Void

    private let indicator = StepIndicator()
    private let stack: Widget
    private let backButton: Widget
    private let primaryButton: Widget
    private var pages: [SetupStep: any WizardPage] = [:]
    private var shownStep: SetupStep?
    private var testTask: Task<Void, Never>?
    /// Bumped whenever a test starts or is abandoned, so late results of an old run are ignored.
    private var testGeneration = 0
    private var leaving = false

    /// - Parameters:
    ///   - prefilledServer: an address to start with (e.g. the demo server, or the current one on
    ///     "Change server…"); the user can still edit it.
    ///   - startAt: `.server` when the user already knows the app (Change server…).
    ///   - replacing: the server whose address is being changed (`Account.signIn`).
    ///   - adding: another server is being added (Add Server…): one already set up is refused.
    public init(
        application: UnsafeMutablePointer<GtkApplication>, account: Account = Account(),
        prefilledServer: String = "", startAt: SetupStep = .welcome, replacing: String? = nil, adding: Bool = false,
        onFinished: @escaping @MainActor (ServerAddress, String) -> Void
    ) {
        self.account = account
        self.replacing = replacing
        self.onFinished = onFinished
        flow = SetupFlow(step: startAt, serverText: prefilledServer)

        // Tall enough for the connection test's five rows with their details (720 cut the last one off).
        window = AppWindow.make(
            application, title: L("Set Up BuilderOS"), name: "setup-wizard", width: Layout.px("wizard-width"), height: Layout.px("wizard-height"))
        let gwindow = gtkCast(window, to: GtkWindow.self)
        if adding {
            flow.alreadySetUp = account.settingsStore.load().servers
            gtk_window_set_title(gwindow, L("Add a Server"))
        }

        stack = UI.stack()
        gtk_stack_set_transition_type(OpaquePointer(stack), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
        gtk_stack_set_transition_duration(OpaquePointer(stack), Motion.duration("normal"))
        gtk_widget_set_vexpand(stack, 1)

        backButton = UI.button(L("_Back"), classes: [Style.secondaryButton]) {}
        primaryButton = UI.button("", classes: [Style.suggested]) {}
        gtk_widget_set_name(backButton, "back")
        gtk_widget_set_name(primaryButton, "primary")
        UI.size(primaryButton, width: Layout.px("wizard-primary-button"))
        UI.size(backButton, width: Layout.px("wizard-back-button"))

        buildPages()
        // The indicator and the buttons stay put; only a tall step's content scrolls between them.
        let nav = UI.hbox(spacing: Style.gap, [backButton, UI.spacer(vertical: false), primaryButton])
        let page = UI.vbox(spacing: Style.gapLarge, [stack])
        UI.margins(page, top: Style.gapSmall, bottom: Style.gapLarge)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), page)
        gtk_widget_set_vexpand(scroller, 1)
        UI.margins(indicator.root, top: Style.gapLarge, bottom: Style.gap)
        UI.margins(nav, top: Style.gap, bottom: Style.gapLarge)
        // One centred column: a scrolled window asks only for its child's minimum width, so the
        // column's 560 px decides the measure and long sentences wrap inside it.
        let column = UI.vbox([indicator.root, scroller, nav])
        UI.size(column, width: Layout.px("wizard-column"))
        UI.align(column, h: GTK_ALIGN_CENTER)
        gtk_window_set_child(gwindow, column)

        Signals.connect(UnsafeMutableRawPointer(backButton), "clicked") { [unowned self] in back() }
        Signals.connect(UnsafeMutableRawPointer(primaryButton), "clicked") { [unowned self] in primary() }
        Signals.onEscape(window) { [unowned self] in requestLeave() }
        Signals.connectHandled(UnsafeMutableRawPointer(window), "close-request") { [unowned self] in
            if leaving || !hasProgress { testTask?.cancel(); return false }
            requestLeave()
            return true
        }
        // The window owns this controller: it lives exactly as long as the window.
        let retained = Unmanaged.passRetained(self)
        Signals.connect(UnsafeMutableRawPointer(window), "destroy") { retained.release() }
        render()
    }

    public func present() { gtk_window_present(gtkCast(window, to: GtkWindow.self)) }

    // MARK: Pages

    private func buildPages() {
        let welcome = WelcomePage { [unowned self] in primary() }
        let server = ServerPage(
            onChange: { [unowned self] text in
                guard flow.serverText != text else { return }
                flow.serverText = text
                render()
            }, onEnter: { [unowned self] in primary() })
        let key = KeyPage(
            onChange: { [unowned self] text in
                guard flow.keyText != text else { return }
                flow.keyText = text
                render()
            }, onEnter: { [unowned self] in primary() })
        let done = DonePage { [unowned self] in primary() }
        pages = [.welcome: welcome, .server: server, .apiKey: key, .test: TestPage { [weak self] in self?.chooseAuthority() }, .done: done]
        for step in SetupStep.allCases {
            UI.addPage(stack, pages[step]!.root, name: "step-\(step.rawValue)", label: step.title)
        }
    }

    // MARK: Rendering

    private func render() {
        indicator.render(flow.step)
        for page in pages.values { page.render(flow) }
        let page = pages[flow.step]!
        if shownStep != flow.step {
            gtk_stack_set_visible_child(OpaquePointer(stack), page.root)
            shownStep = flow.step
            gtk_widget_grab_focus(page.focusTarget)
        }
        // The welcome and done steps carry their own centred button.
        let ownButton = flow.step == .welcome || flow.step == .done
        UI.setVisible(primaryButton, !ownButton)
        UI.setVisible(backButton, flow.step != .welcome && flow.step != .done)
        UI.setButtonLabel(primaryButton, primaryLabel)
        UI.setSensitive(primaryButton, flow.step == .test ? !flow.isTesting : flow.canContinue)
    }

    private var primaryLabel: String {
        switch flow.step {
        case .welcome: return L("_Get Started")
        case .server: return L("_Continue")
        case .apiKey: return L("_Test Connection")
        case .test:
            if flow.isTesting { return L("Testing…") }
            return flow.failedCheck != nil ? L("_Retry") : L("_Continue")
        case .done: return L("_Open BuilderOS")
        }
    }

    /// True once the user has moved past the welcome step and not finished.
    private var hasProgress: Bool { flow.step != .welcome && flow.step != .done }

    // MARK: Actions

    private func primary() {
        switch flow.step {
        case .server:
            switch flow.advance() {
            case .proceed: break
            case .invalid, .alreadyAdded: gtk_widget_grab_focus(pages[.server]!.focusTarget)
            case .needsConsent(let address):
                ConfirmDialog.ask(
                    parent: window, title: L("Use an unencrypted connection?"),
                    body: address.transportWarning ?? "", cancel: L("_Cancel"), confirm: L("_Use Anyway"),
                    destructive: true, name: "http-consent"
                ) { [unowned self] in
                    flow.consentToPlainHTTP()
                    flow.advance()
                    render()
                }
            }
        case .apiKey:
            guard flow.canContinue else { return }
            flow.advance()
            render()
            runTest()
        case .test:
            if flow.isStored { flow.advance() } else if !flow.isTesting { runTest() }
        case .done:
            guard let server = flow.server else { return }
            leaving = true
            let key = flow.keyText
            flow.keyText = ""
            onFinished(server, key)
            gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
            return
        case .welcome:
            flow.advance()
        }
        render()
    }

    private func back() {
        testGeneration += 1
        testTask?.cancel()
        let target = flow.step == .test ? (flow.stepToFix ?? .apiKey) : flow.step.previous ?? .welcome
        flow.go(backTo: target)
        render()
    }

    /// Escape or the close button: leaving before the end asks first, and then stores nothing.
    private func requestLeave() {
        guard hasProgress else {
            leaving = true
            gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
            return
        }
        ConfirmDialog.ask(
            parent: window, title: L("Leave the setup?"),
            body: L("Nothing has been saved yet. You can set up BuilderOS the next time you open it."),
            cancel: L("_Keep Setting Up"), confirm: L("_Leave"), name: "leave-setup"
        ) { [unowned self] in
            leaving = true
            testGeneration += 1
            testTask?.cancel()
            gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        }
    }

    // MARK: The test

    private func runTest() {
        guard let server = flow.server else { return }
        testGeneration += 1
        let generation = testGeneration
        let key = flow.keyText
        let storesOnly = flow.retryStoresOnly
        let network = ClientConfiguration(extraCAFile: flow.caFile)
        if !storesOnly { flow.resetTest() }
        testTask = Task { [weak self] in
            if !storesOnly {
                // Progress arrives on a background thread; a stream keeps it in order.
                let (updates, sink) = AsyncStream.makeStream(of: (SetupCheck, ConnectionTestOutcome).self)
                let test = Task.detached {
                    let report = await ConnectionTest(server: server, apiKey: key, configuration: network).run { step, outcome in
                        sink.yield((.connection(step), outcome))
                    }
                    sink.finish()
                    return report
                }
                for await (check, outcome) in updates {
                    guard let self, generation == self.testGeneration else { return }
                    self.flow.record(check, outcome)
                    self.render()
                }
                let report = await test.value
                guard let self, generation == self.testGeneration else { return }
                self.flow.finishTest(report)
                self.render()
                guard report.passed else { return }
            }
            guard let self, generation == self.testGeneration else { return }
            await self.store(server: server, key: key, generation: generation)
        }
        render()
    }

    /// Trust a Certificate Authority…: a PEM file chosen here is trusted for this server (beside the system's
    /// authorities, never instead of verifying), and the test runs again with it.
    private func chooseAuthority() {
        FileChooser.choose(.open, title: L("Choose the Certificate Authority"), accept: L("_Trust"), parent: window) { [weak self] path in
            guard let self else { return }
            flow.caFile = path
            runTest()
        }
    }

    private func store(server: ServerAddress, key: String, generation: Int) async {
        flow.record(.storingKey, .running)
        render()
        do {
            if flow.alreadySetUp.isEmpty {
                try await account.signIn(server: server, key: key, replacing: replacing, caFile: flow.caFile)
            } else {
                try await account.add(server: server, key: key, caFile: flow.caFile)
            }
            guard generation == testGeneration else { return }
            flow.markStored()
        } catch {
            guard generation == testGeneration else { return }
            flow.record(.storingKey, .failed(error))
        }
        render()
        gtk_widget_grab_focus(primaryButton)
    }
}
