import BuilderOSKit
import CGtk
import GtkKit

/// Shown at start when the keyring cannot be read (not running, or locked): what happened, what
/// to do, and Retry. The app never falls back to storing the key anywhere else.
@MainActor
final class ProblemWindow {
    let window: Widget

    init(application: UnsafeMutablePointer<GtkApplication>, error: BuilderOSError, onRetry: @escaping @MainActor () -> Void) {
        window = AppWindow.make(
            application, title: "BuilderOS", name: "keyring-problem", width: Layout.px("problem-width"), height: Layout.px("problem-height"))
        let gwindow = gtkCast(window, to: GtkWindow.self)
        let retry = UI.button(L("_Retry"), classes: [Style.suggested]) {
            gtk_window_destroy(gwindow)
            onRetry()
        }
        gtk_widget_set_name(retry, "retry")
        let quit = UI.button(L("_Quit"), classes: [Style.secondaryButton]) { gtk_window_destroy(gwindow) }
        let content = UI.vbox(
            spacing: Style.gap,
            [
                LogoTile.make(size: Layout.px("logo-problem")),
                UI.label(error.userMessage, classes: [Style.title]),
                UI.label(error.fixIt ?? "", classes: [Style.body]),
                UI.label(
                    L("BuilderOS Desktop keeps your API key only in your keyring, so it cannot connect until the keyring is available."),
                    classes: [Style.label, Style.dim]),
                UI.hbox(spacing: Style.gapSmall, [UI.spacer(vertical: false), quit, retry]),
            ])
        UI.size(content, width: Layout.px("problem-column"))
        UI.align(content, h: GTK_ALIGN_CENTER, v: GTK_ALIGN_CENTER)
        UI.margins(content, top: Style.gapLarge, bottom: Style.gapLarge, start: Style.gapLarge, end: Style.gapLarge)
        gtk_window_set_child(gwindow, content)
        gtk_widget_grab_focus(retry)
    }

    func present() { gtk_window_present(gtkCast(window, to: GtkWindow.self)) }
}
