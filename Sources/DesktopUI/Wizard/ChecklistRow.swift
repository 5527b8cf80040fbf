import BuilderOSKit
import CGtk
import GtkKit

/// One row of the connection-test checklist: a spinner while it runs, then a mark and a detail.
@MainActor
final class ChecklistRow {
    let root: Widget
    private let spinner: Widget
    private let mark: Widget
    private let detail: Widget

    init(title: String, name: String) {
        spinner = Spinner.make(label: title)
        UI.size(spinner, width: Layout.px("check-icon"), height: Layout.px("check-icon"))
        mark = UI.label("", classes: [Style.headline], wrap: false, xalign: 0.5)
        UI.size(mark, width: Layout.px("check-icon"))
        detail = UI.label("", classes: [Style.label, Style.dim])
        let texts = UI.vbox(spacing: Style.gapHairline, [UI.label(title, classes: [Style.headline]), detail])
        gtk_widget_set_hexpand(texts, 1)
        root = UI.hbox(spacing: Style.gap, [spinner, mark, texts])
        UI.align(spinner, v: GTK_ALIGN_START)
        UI.align(mark, v: GTK_ALIGN_START)
        gtk_widget_set_name(root, name)
    }

    func render(_ outcome: ConnectionTestOutcome?) {
        let running = outcome == .running
        UI.setVisible(spinner, running)
        Spinner.setSpinning(spinner, running)
        UI.setVisible(mark, !running)
        for style in [Style.checkPassed, Style.checkNote, Style.checkFailed, Style.checkPending] { UI.setClass(mark, style, false) }
        let (glyph, style, text, spoken): (String, String, String, String)
        switch outcome {
        case nil: (glyph, style, text, spoken) = ("○", Style.checkPending, L("Waiting"), L("Waiting"))
        case .running: (glyph, style, text, spoken) = ("", Style.checkPending, L("Checking…"), L("Checking"))
        case .passed(let detail): (glyph, style, text, spoken) = ("✓", Style.checkPassed, detail, L("Passed"))
        case .passedWithNote(let note): (glyph, style, text, spoken) = ("!", Style.checkNote, note, L("Passed with a note"))
        case .failed(let error): (glyph, style, text, spoken) = ("✗", Style.checkFailed, error.userMessage, L("Failed"))
        case .skipped: (glyph, style, text, spoken) = ("–", Style.checkPending, L("Not checked"), L("Not checked"))
        }
        UI.setText(mark, glyph)
        UI.setClass(mark, style, true)
        UI.setText(detail, text)
        Accessibility.setLabel(mark, spoken)
    }
}
