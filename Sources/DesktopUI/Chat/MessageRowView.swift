import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// One row of the message list: a bubble (user right and blue, assistant left and grey) or a
/// centred status pill, with its time and delivery state; right-click or Menu/Shift+F10 offers Copy.
/// Rows are recycled by the list view: `show(_:)` rebuilds for a new message and only updates the
/// text for the same one.
@MainActor
final class MessageRowView {
    let widget: Widget
    /// The row's own reference to its widget: GTK unparents the widget before the list's
    /// "teardown" (when the view goes), and the list hands both to `DeferredRelease` there.
    private let reference: ObjectRef
    private(set) var message: ChatMessage?
    private var markdown: MarkdownView?
    private var bubble: Widget?
    private var plain: Widget?
    private var caption: Widget?
    private var labelledMessage: UUID?
    /// Marks the row as the message a search opened (the bubble gets an accent ring; the accessible
    /// description says so).
    func setFound(_ found: Bool) {
        UI.setClass(widget, Style.found, found)
        Accessibility.setDescription(widget, found ? L("Search result") : "")
    }

    /// The find bar's words and phrases, marked wherever the message's text shows them (`TextMatches`).
    private var findTerms: [SearchQuery.Term] = []

    func setFindTerms(_ terms: [SearchQuery.Term]) {
        guard terms != findTerms else { return }
        findTerms = terms
        markFound()
    }

    private func markFound() {
        guard let bubble, !contentPending else { return }
        let terms = findTerms
        LabelHighlight.apply(in: bubble, background: Style.findMatch.background, foreground: Style.findMatch.text) { text in
            terms.isEmpty ? [] : TextMatches.utf8Ranges(of: terms, in: text)
        }
    }

    /// The user's "Send Again" on a message that was not delivered.
    var onResend: ((ChatMessage) -> Void)?

    init() {
        // The bubble at its natural width, at most the row's: no width sharing around wrapped text.
        widget = SingleChildLayout.box(align: GTK_ALIGN_START)
        reference = ObjectRef(sinking: UnsafeMutableRawPointer(widget))
        UI.margins(widget, top: Style.gapTiny, bottom: Style.gapTiny, start: Style.gap, end: Style.gap)
        gtk_widget_set_focusable(widget, 1)
        Signals.onClick(widget, button: 3) { [unowned self] x, y in showMenu(x: x, y: y) }
        // A row destroyed with its menu open takes the menu down first (GTK wants children gone before a widget).
        Signals.connect(UnsafeMutableRawPointer(widget), "destroy") { [weak self] in self?.dropMenu() }
        Signals.onKeyPressed(widget) { [unowned self] keyval, modifiers in
            let menuKey: UInt32 = 0xff67, f10: UInt32 = 0xffc7, shift: UInt32 = 1
            guard keyval == menuKey || (keyval == f10 && modifiers & shift != 0) else { return false }
            showMenu(x: 24, y: 12)
            return true
        }
    }

    /// Whether the row stands as a placeholder of about its size, its content not made yet.
    private(set) var contentPending = false

    /// Where a placeholder stands: the list's width and the width of a character of its font.
    struct PlaceholderRoom { var width: Int32; var characterWidth: Int32 }

    /// Shows `next`. As a placeholder (`RowPlaceholders`), a question's or a reply's bubble stands
    /// empty at about its size within `room`, its caption and accessible name already there, until
    /// `makeContent()`.
    func show(_ next: ChatMessage, placeholderIn room: PlaceholderRoom? = nil) {
        if let message, message.id == next.id, message.role == next.role {
            update(next)
            return
        }
        var child = gtk_widget_get_first_child(widget)
        while let c = child {
            child = gtk_widget_get_next_sibling(c)
            // The old message's widgets are destroyed once the loop is idle (`DeferredRelease`).
            if c != menu { DeferredRelease.release(c); gtk_widget_unparent(c) }
        }
        markdown = nil
        plain = nil
        bubble = nil
        message = next
        contentPending = false
        let column = UI.vbox(spacing: Style.gapHairline)
        let caption = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
        self.caption = caption
        switch next.role {
        case .user, .assistant:
            let user = next.role == .user
            let bubble = UI.vbox(spacing: Style.gapTiny, classes: [user ? Style.bubbleUser : Style.bubbleAssistant])
            self.bubble = bubble
            SingleChildLayout.setAlign(widget, user ? GTK_ALIGN_END : GTK_ALIGN_START)
            gtk_label_set_xalign(OpaquePointer(caption), user ? 1 : 0)
            [bubble, caption].forEach { UI.append(column, $0) }
            UI.append(widget, column)
            contentPending = true
            if let room {
                let size = placeholderSize(next, in: room)
                gtk_widget_set_size_request(bubble, size.width, size.height)
                gtk_widget_add_css_class(bubble, Style.bubblePending)
            } else {
                makeContent()
            }
        case .status:
            let pill = UI.label(next.text, classes: [Style.statusPill], wrap: true, xalign: 0.5)
            plain = pill
            SingleChildLayout.setAlign(widget, GTK_ALIGN_CENTER)
            gtk_label_set_xalign(OpaquePointer(caption), 0.5)
            [pill, caption].forEach { UI.append(column, $0) }
            UI.append(widget, column)
        }
        updateCaption(next)
    }

    /// Makes a placeholder's content: the text (a question's) or the Markdown (a reply's) in its bubble.
    func makeContent() {
        guard contentPending, let message, let bubble else { return }
        contentPending = false
        gtk_widget_set_size_request(bubble, -1, -1)
        gtk_widget_remove_css_class(bubble, Style.bubblePending)
        if message.role == .assistant {
            let view = MarkdownView()
            markdown = view
            UI.append(bubble, view.widget)
            view.show(message.text)
            if !findTerms.isEmpty { markFound() }
            return
        }
        // A question wraps like a reply's text, with one Pango layout per change (GtkLabel searches
        // its natural width with several).
        let label = TextLabel.make(maxChars: Layout.chars("bubble"))
        gtk_label_set_text(OpaquePointer(label), message.text)
        MarkdownWidgets.keepMinimumWidth(label)
        gtk_widget_set_focus_on_click(label, 0)
        plain = label
        UI.append(bubble, label)
        for attachment in message.attachments {
            let icon = gtk_image_new_from_icon_name("mail-attachment-symbolic")!
            UI.append(bubble, UI.hbox(spacing: Style.gapTiny, [icon, UI.label(attachment.filename, classes: [Style.label], wrap: true)]))
        }
        if !findTerms.isEmpty { markFound() }
    }

    /// About the size of `message`'s bubble: its text's lines at the line length of its kind (a
    /// reply's `MarkdownWidgets.lineChars`, a question's 60) and the body text's line height.
    private func placeholderSize(_ message: ChatMessage, in room: PlaceholderRoom) -> (width: Int32, height: Int32) {
        let longest = Self.longestLine(message.text)
        let width = min(room.characterWidth * Int32(min(longest, Self.lineCharacters(message))), max(room.width - 4 * Style.gap, 0))
        return (width, Int32(Self.estimatedHeight(message)))
    }

    /// About how tall `message`'s bubble is, before its content is made (mostly short of it:
    /// headings, code and the space between blocks are taller than body lines).
    static func estimatedHeight(_ message: ChatMessage) -> Double {
        RowPlaceholders.estimatedHeight(text: message.text, lineCharacters: lineCharacters(message), lineHeight: lineHeight, extra: lineHeight)
    }

    private static func lineCharacters(_ message: ChatMessage) -> Int {
        message.role == .assistant ? Int(MarkdownWidgets.lineChars) : 60
    }

    /// The length of the text's longest line, in scalars.
    private static func longestLine(_ text: String) -> Int {
        var longest = 0, length = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" { (longest, length) = (max(longest, length), 0) } else { length += 1 }
        }
        return max(longest, length)
    }

    /// The body text's line height in pixels, from the design tokens.
    private static let lineHeight: Double = {
        guard let body = DesignTokens.shipped?.typography.styles["body"] else { return 20 }
        return body.size * body.lineHeight
    }()

    private func update(_ next: ChatMessage) {
        let textChanged = message?.text != next.text
        message = next
        // A placeholder takes the newest text when its content is made.
        if textChanged, !contentPending {
            if let markdown { markdown.show(next.text) } else if let plain { UI.setText(plain, next.text) }
            if !findTerms.isEmpty { markFound() }
        }
        updateCaption(next)
    }

    private func updateCaption(_ m: ChatMessage) {
        let time = LocalTime.shortTime(m.created)
        let state: String?
        switch m.state {
        case .queued: state = L("Waiting to send")
        case .interrupted: state = L("Interrupted: the connection dropped")
        case .stopped: state = m.role == .user ? L("Not sent") : L("Stopped")
        case .failed: state = m.role == .assistant ? L("Failed") : m.role == .user ? L("Not delivered") : nil
        case .streaming, .sent, .complete: state = nil
        }
        let text = [time, state].compactMap { $0 }.joined(separator: " · ")
        let name = "message-\(m.role.rawValue)-\(m.state.rawValue)"
        // Only when the state changes: not on every frame of a streaming reply (screen readers
        // read the text itself; the label says who and when).
        guard WidgetTree.stateName(of: widget) != name || labelledMessage != m.id else { return }
        labelledMessage = m.id
        if let caption { UI.setText(caption, text) }
        let preview = String(m.text.prefix(300))
        let accessible =
            m.role == .user
            ? L("You said %@", preview)
            // A reply is shown as rendered Markdown: its name says the text, not the marks.
            : m.role == .assistant ? L("Assistant replied %@", MarkdownMarks.removed(from: preview)) : preview
        Accessibility.setLabel(widget, [accessible, text].joined(separator: ", "))
        WidgetTree.setStateName(widget, name)
    }

    /// The open context menu, if any: unparented when it closes or when the row goes.
    private var menu: Widget?

    private func dropMenu() {
        guard let menu else { return }
        self.menu = nil
        if gtk_widget_get_parent(menu) == widget { gtk_widget_unparent(menu) }
    }

    private func showMenu(x: Double, y: Double) {
        guard let message else { return }
        let popover = gtk_popover_new()!
        let copy = UI.button(L("_Copy Text"), classes: [Style.transparent]) {
            Clipboard.copy(message.text, from: popover)
            gtk_popover_popdown(gtkCast(popover, to: GtkPopover.self))
        }
        gtk_widget_set_name(copy, "copy-message")
        let items = UI.vbox([copy])
        if message.role == .user, message.state == .failed || message.state == .stopped, let onResend {
            let again = UI.button(L("Send _Again"), classes: [Style.transparent]) {
                gtk_popover_popdown(gtkCast(popover, to: GtkPopover.self))
                onResend(message)
            }
            gtk_widget_set_name(again, "resend-message")
            UI.append(items, again)
        }
        gtk_popover_set_child(gtkCast(popover, to: GtkPopover.self), items)
        gtk_widget_set_parent(popover, widget)
        var rect = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(gtkCast(popover, to: GtkPopover.self), &rect)
        dropMenu()
        menu = popover
        Signals.connect(UnsafeMutableRawPointer(popover), "closed") { [weak self] in
            // Unparent after the close animation's signal returns, and only if it is still this row's menu:
            // the row may have been destroyed (or opened another menu) in between.
            Task { @MainActor in if self?.menu == popover { self?.dropMenu() } }
        }
        gtk_popover_popup(gtkCast(popover, to: GtkPopover.self))
    }
}
