import BuilderOSKit
import GtkKit

/// One step's content in the setup wizard. The wizard owns the flow; a page shows it and reports
/// edits back through closures it was given.
@MainActor
protocol WizardPage: AnyObject {
    var root: Widget { get }
    /// What has keyboard focus when the step appears.
    var focusTarget: Widget { get }
    func render(_ flow: SetupFlow)
}

/// The heading block every step but the welcome starts with.
@MainActor
enum PageHeading {
    static func make(title: String, body: String) -> Widget {
        UI.vbox(
            spacing: Style.gapSmall,
            [
                UI.label(title, classes: [Style.title]),
                UI.label(body, classes: [Style.body, Style.dim]),
            ])
    }
}
