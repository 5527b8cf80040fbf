import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// A code block: wide, monospace, never wrapped, scrolling sideways, with its language and a Copy
/// button that says "Copied" for a moment. The code is shown by one label per 40 lines, so a block
/// that grows while a reply streams re-lays out only its last lines.
@MainActor
final class CodeBlockView: BlockView {
    let widget: Widget
    private let lines = UI.vbox()
    private let languageLabel: Widget
    private var labels: [Widget] = []
    private var pieces: [String] = []
    private var language: String??
    private var code = ""
    static let linesPerLabel = 40

    init() {
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(OpaquePointer(scroller), 1)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), lines)
        gtk_widget_set_hexpand(scroller, 1)

        let copy = UI.button(L("_Copy")) {}
        gtk_widget_set_name(copy, "copy-code")
        Self.showLabel(L("_Copy"), on: copy)
        Tooltip.set(copy, L("Copy code"))
        languageLabel = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
        let header = UI.hbox(spacing: Style.gapSmall, [languageLabel, UI.spacer(vertical: false), copy])
        widget = UI.vbox(spacing: Style.gapTiny, classes: [Style.codeBlock], [header, scroller])
        gtk_widget_set_name(widget, "code-block")
        gtk_widget_set_hexpand(widget, 1)
        Signals.connect(UnsafeMutableRawPointer(copy), "clicked") { [weak self] in self?.copied(copy) }
        // Nested code blocks (in a list or a quote) have no other owner than their widget.
        Lifetime.tie(self, to: widget)
    }

    func update(_ block: MarkdownBlock) -> Bool {
        guard case .code(let language, let code) = block else { return false }
        if let shown = self.language, shown != language { return false }
        if self.language == nil { UI.setText(languageLabel, language ?? L("code")) }
        self.language = .some(language)
        self.code = code
        let next = Self.pieces(of: code)
        for (index, piece) in next.enumerated() {
            if index < labels.count {
                if pieces[index] != piece { UI.setText(labels[index], piece) }
            } else {
                let label = UI.label(piece, classes: [Style.code], wrap: false, selectable: true)
                gtk_widget_set_focus_on_click(label, 0)
                UI.append(lines, label)
                labels.append(label)
            }
        }
        while labels.count > next.count { gtk_box_remove(gtkCast(lines, to: GtkBox.self), labels.removeLast()) }
        pieces = next
        return true
    }

    /// The code in runs of `linesPerLabel` lines.
    static func pieces(of code: String) -> [String] {
        let all = code.split(separator: "\n", omittingEmptySubsequences: false)
        return stride(from: 0, to: all.count, by: linesPerLabel).map { all[$0..<min($0 + linesPerLabel, all.count)].joined(separator: "\n") }
    }

    private func copied(_ copy: Widget) {
        Clipboard.copy(code, from: copy)
        Self.showLabel(L("Copied"), on: copy)
        g_object_ref(UnsafeMutableRawPointer(copy))  // alive until the label is back, even if the row goes
        Task {
            try? await Task.sleep(for: .milliseconds(Motion.duration("confirmation")))
            Self.showLabel(L("_Copy"), on: copy)
            g_object_unref(UnsafeMutableRawPointer(copy))
        }
    }

    /// The button shows "Copy" or "Copied"; a screen reader hears what it does either way.
    private static func showLabel(_ text: String, on copy: Widget) {
        UI.setButtonLabel(copy, text)
        Accessibility.setLabel(copy, L("Copy code"))
    }
}
