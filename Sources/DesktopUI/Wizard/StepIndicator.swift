import BuilderOSKit
import CGtk
import GtkKit

/// "Step 2 of 5": a numbered dot per step (done ones ticked) and the current step's name.
@MainActor
final class StepIndicator {
    let root: Widget
    private var dots: [Widget] = []
    private let caption: Widget

    init() {
        let row = UI.hbox(spacing: Style.gapSmall)
        UI.align(row, h: GTK_ALIGN_CENTER)
        for step in SetupStep.allCases {
            let dot = UI.label("\(step.number)", classes: [Style.stepDot], wrap: false, xalign: 0.5)
            UI.size(dot, width: Layout.px("step-dot"), height: Layout.px("step-dot"))
            dots.append(dot)
            UI.append(row, dot)
            if step.next != nil {
                let line = UI.vbox(classes: ["bos-separator"])
                UI.size(line, width: Layout.px("step-line"))
                UI.align(line, v: GTK_ALIGN_CENTER)
                UI.append(row, line)
            }
        }
        caption = UI.label("", classes: [Style.label, Style.dim], xalign: 0.5)
        gtk_widget_set_name(caption, "step-caption")
        root = UI.vbox(spacing: Style.gapSmall, [row, caption])
    }

    func render(_ step: SetupStep) {
        for (candidate, dot) in zip(SetupStep.allCases, dots) {
            UI.setClass(dot, Style.stepDotDone, candidate < step)
            UI.setClass(dot, Style.stepDotCurrent, candidate == step)
            UI.setText(dot, candidate < step ? "✓" : "\(candidate.number)")
        }
        let text = L("Step %d of %d: %@", String(step.number), String(SetupStep.allCases.count), step.title)
        UI.setText(caption, text)
        Accessibility.setLabel(root, text)
    }
}
