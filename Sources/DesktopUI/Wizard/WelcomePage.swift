import BuilderOSKit
import CGtk
import GtkKit

/// Step 1: the logo tile, the name and what the app is for.
@MainActor
final class WelcomePage: WizardPage {
    let root: Widget
    let focusTarget: Widget

    init(onStart: @escaping @MainActor () -> Void) {
        let tile = LogoTile.make(size: Layout.px("logo-welcome"))
        let start = UI.button(L("_Get Started"), classes: [Style.suggested], action: onStart)
        gtk_widget_set_name(start, "get-started")
        UI.align(start, h: GTK_ALIGN_CENTER)
        UI.size(start, width: Layout.px("wide-button"))
        focusTarget = start
        let name = UI.label("BuilderOS", classes: [Style.display], xalign: 0.5)
        let purpose = UI.label(
            L(
                "Your BuilderOS server, on your desktop: chat with Jarvis and Codex, see how your system is doing, and put the server to sleep when you are done."
            ),
            classes: [Style.body, Style.dim], xalign: 0.5)
        gtk_label_set_justify(OpaquePointer(purpose), GTK_JUSTIFY_CENTER)
        root = UI.vbox(spacing: Style.gapLarge, [tile, name, purpose, start])
        UI.margins(start, top: Style.gap)
        UI.align(root, v: GTK_ALIGN_CENTER)
        UI.align(tile, h: GTK_ALIGN_CENTER)
    }

    func render(_ flow: SetupFlow) {}
}
