import BuilderOSKit
import CGtk
import GtkKit

/// Step 4: the connection test as a checklist, and on failure what went wrong and what to do.
@MainActor
final class TestPage: WizardPage {
    let root: Widget
    var focusTarget: Widget { root }
    private var rows: [SetupCheck: ChecklistRow] = [:]
    private let problem: Widget
    private let problemText: Widget
    private let fixText: Widget
    private let trust: Widget
    private let trusted: Widget

    /// `onTrustAuthority`: the user wants to choose a certificate authority to trust for this server.
    init(onTrustAuthority: @escaping @MainActor () -> Void) {
        let list = UI.vbox(spacing: Style.gap, classes: [Style.card])
        for (index, check) in SetupCheck.allCases.enumerated() {
            let row = ChecklistRow(title: check.title, name: "check-\(index)")
            rows[check] = row
            UI.append(list, row.root)
        }
        problemText = UI.label("", classes: [Style.headline, Style.errorText])
        gtk_widget_set_name(problemText, "test-problem")
        fixText = UI.label("", classes: [Style.body])
        gtk_widget_set_name(fixText, "test-fix")
        trust = UI.button(L("_Trust a Certificate Authority…"), classes: [Style.secondaryButton], action: onTrustAuthority)
        gtk_widget_set_name(trust, "trust-authority")
        gtk_widget_set_halign(trust, GTK_ALIGN_START)
        UI.setVisible(trust, false)
        trusted = UI.label("", classes: [Style.label, Style.dim])
        gtk_widget_set_name(trusted, "trusted-authority")
        problem = UI.vbox(spacing: Style.gapSmall, classes: [Style.notice], [problemText, fixText, trust, trusted])
        root = UI.vbox(
            spacing: Style.gapLarge,
            [
                PageHeading.make(
                    title: L("Testing the connection"),
                    body: L("BuilderOS Desktop checks the server and the key before it saves anything.")),
                // What went wrong comes first, so it is seen without scrolling.
                problem, list,
            ])
        gtk_widget_set_focusable(root, 1)
        Accessibility.setLabel(root, L("Connection test results"))
    }

    func render(_ flow: SetupFlow) {
        for (check, row) in rows { row.render(flow.checks[check]) }
        if let failure = flow.failedCheck {
            UI.setText(problemText, failure.error.userMessage)
            UI.setText(fixText, failure.error.fixIt ?? L("Try again in a moment."))
            UI.setVisible(problem, true)
            UI.setVisible(trust, flow.offersAuthority)
            UI.setText(trusted, flow.caFile.map { L("Trusting the authorities in %@ for this server.", $0) } ?? "")
            UI.setVisible(trusted, flow.caFile != nil)
        } else {
            UI.setVisible(problem, false)
        }
    }
}
