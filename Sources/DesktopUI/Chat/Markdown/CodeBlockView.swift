import BuilderOSKit
import CGtk
import GtkKit

/// A code block: wide, monospace, never wrapped, scrolling sideways, with its language and a Copy
/// button that says "Copied" for a moment.
@MainActor
enum CodeBlockView {
    static func make(language: String?, code: String) -> Widget {
        let label = UI.label(code, classes: [Style.code], wrap: false, selectable: true)
        gtk_widget_set_focus_on_click(label, 0)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(OpaquePointer(scroller), 1)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), label)
        gtk_widget_set_hexpand(scroller, 1)

        let copy = gtk_button_new_with_mnemonic(L("_Copy"))!
        gtk_widget_set_name(copy, "copy-code")
        Accessibility.setLabel(copy, L("Copy code"))
        gtk_widget_set_tooltip_text(copy, L("Copy code"))
        Signals.connect(UnsafeMutableRawPointer(copy), "clicked") {
            Clipboard.copy(code, from: copy)
            gtk_button_set_label(gtkCast(copy, to: GtkButton.self), L("Copied"))
            g_object_ref(UnsafeMutableRawPointer(copy))  // alive until the label is back, even if the row goes
            Task {
                try? await Task.sleep(nanoseconds: 1_500_000_000)
                gtk_button_set_label(gtkCast(copy, to: GtkButton.self), L("_Copy"))
                gtk_button_set_use_underline(gtkCast(copy, to: GtkButton.self), 1)
                g_object_unref(UnsafeMutableRawPointer(copy))
            }
        }
        let languageLabel = UI.label(language ?? L("code"), classes: [Style.caption, Style.dim], wrap: false)
        let header = UI.hbox(spacing: Style.gapSmall, [languageLabel, UI.spacer(vertical: false), copy])
        let block = UI.vbox(spacing: 4, classes: [Style.codeBlock], [header, scroller])
        gtk_widget_set_name(block, "code-block")
        gtk_widget_set_hexpand(block, 1)
        return block
    }
}
