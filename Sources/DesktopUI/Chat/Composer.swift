import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The input bar: quick actions (⚡), attach (📎), a multi-line field (Enter sends, Shift+Enter
/// adds a line), Stop while a reply is awaited, and Send (disabled when empty or busy).
@MainActor
final class Composer {
    let widget: Widget
    let textView: Widget
    let quickActionsButton: Widget
    let attachButton: Widget
    let sendButton: Widget
    let stopButton: Widget
    private let placeholder: Widget
    private let buffer: UnsafeMutablePointer<GtkTextBuffer>
    private var busy = false
    private var settingText = false
    var onSend: (() -> Void)?
    var onStop: (() -> Void)?
    var onAttach: (() -> Void)?
    var onChange: ((String) -> Void)?
    /// Extra condition for Send (e.g. an upload in progress).
    var canSendExtra: () -> Bool = { true }

    init(quickActions: Widget) {
        textView = gtk_text_view_new()
        let view = gtkCast(textView, to: GtkTextView.self)
        gtk_text_view_set_wrap_mode(view, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(view, 0)
        gtk_widget_set_name(textView, "message-input")
        Accessibility.setLabel(textView, L("Message input field"))
        buffer = gtk_text_view_get_buffer(view)
        placeholder = UI.label("", classes: [Style.body, Style.dim], wrap: false)
        gtk_widget_set_can_target(placeholder, 0)
        UI.align(placeholder, h: GTK_ALIGN_START, v: GTK_ALIGN_START)
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(OpaquePointer(overlay), textView)
        gtk_overlay_add_overlay(OpaquePointer(overlay), placeholder)
        // One line tall when empty (the design's 36 px field): the placeholder's line, not the text view's, sets it.
        gtk_overlay_set_measure_overlay(OpaquePointer(overlay), placeholder, 1)
        Accessibility.setLabel(overlay, L("Message input field"))
        // Grows with its text up to about eight lines, then scrolls.
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(OpaquePointer(scroller), 1)
        gtk_scrolled_window_set_max_content_height(OpaquePointer(scroller), Layout.px("composer-max-height"))
        gtk_scrolled_window_set_child(OpaquePointer(scroller), overlay)
        let field = UI.vbox(classes: [Style.composer], [scroller])
        gtk_widget_set_hexpand(field, 1)

        quickActionsButton = quickActions
        attachButton = PageLayout.iconButton("mail-attachment-symbolic", label: L("Attach a file")) {}
        gtk_widget_set_name(attachButton, "attach")
        stopButton = UI.button(L("S_top"), classes: [Style.secondaryButton]) {}
        gtk_widget_set_name(stopButton, "stop")
        Accessibility.setLabel(stopButton, L("Stop waiting for the reply"))
        sendButton = PageLayout.iconButton("go-up-symbolic", label: L("Send message")) {}
        UI.addClasses(sendButton, [Style.suggested, Style.inputBarButton])
        gtk_widget_set_name(sendButton, "send")
        UI.addClasses(attachButton, ["flat", Style.inputBarButton])
        UI.addClasses(quickActionsButton, [Style.inputBarButton])
        for b in [quickActionsButton, attachButton, stopButton, sendButton] { UI.align(b, v: GTK_ALIGN_END) }
        widget = UI.hbox(spacing: Style.gapSmall, [quickActionsButton, attachButton, field, stopButton, sendButton])
        UI.margins(widget, top: Style.gapSmall, bottom: Style.gap, start: Style.gap, end: Style.gap)

        Signals.connect(UnsafeMutableRawPointer(sendButton), "clicked") { [unowned self] in send() }
        Signals.connect(UnsafeMutableRawPointer(stopButton), "clicked") { [unowned self] in onStop?() }
        Signals.connect(UnsafeMutableRawPointer(attachButton), "clicked") { [unowned self] in onAttach?() }
        Signals.connect(UnsafeMutableRawPointer(buffer), "changed") { [unowned self] in
            refresh()
            if !settingText { onChange?(text) }
        }
        Signals.onKeyPressed(textView) { [unowned self] keyval, modifiers in
            let returnKey: UInt32 = 0xff0d, keypadEnter: UInt32 = 0xff8d, shift: UInt32 = 1
            guard keyval == returnKey || keyval == keypadEnter, modifiers & shift == 0 else { return false }
            send()
            return true
        }
        Lifetime.tie(self, to: widget)
        refresh()
    }

    var text: String { UI.text(ofBuffer: buffer) }

    /// Sets the text without reporting it as an edit (drafts being restored).
    func setText(_ text: String) {
        settingText = true
        gtk_text_buffer_set_text(buffer, text, -1)
        settingText = false
        refresh()
    }

    func setPlaceholder(_ text: String) { UI.setText(placeholder, text) }

    func setBusy(_ busy: Bool) {
        self.busy = busy
        refresh()
    }

    func focus() { gtk_widget_grab_focus(textView) }

    func refresh() {
        let empty = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        UI.setVisible(placeholder, text.isEmpty)
        UI.setSensitive(sendButton, !empty && !busy && canSendExtra())
        UI.setVisible(stopButton, busy)
    }

    private func send() {
        guard gtk_widget_get_sensitive(sendButton) != 0 else { return }
        onSend?()
    }
}
