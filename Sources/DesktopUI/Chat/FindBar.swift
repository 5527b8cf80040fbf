import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Ctrl+F over the open conversation: finds in all of its messages, not only those the list has
/// loaded (`HistorySearchService.find`), marks the matched words in every row and shows each match
/// in its place. Matches count from the newest; Enter or F3 goes to the next older one, Shift+Enter
/// or Shift+F3 back; Escape closes the bar.
@MainActor
final class FindBar {
    let widget: Widget
    private let entry: Widget
    private let count = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
    private let search: HistorySearchService?
    private var state = ConversationFind()
    /// The conversation to find in.
    var conversation: (() -> UUID?)?
    /// Show this match in its place, ringed.
    var onShow: ((FoundMessage) -> Void)?
    /// The words and phrases to mark (none: the bar closed or nothing typed).
    var onTerms: (([SearchQuery.Term]) -> Void)?
    /// The bar closed: focus back to the conversation.
    var onClose: (() -> Void)?

    var isOpen: Bool { gtk_widget_get_visible(widget) != 0 }

    init(search: HistorySearchService?) {
        self.search = search
        entry = gtk_search_entry_new()
        gtk_widget_set_name(entry, "find-entry")
        gtk_widget_set_hexpand(entry, 1)
        Accessibility.setLabel(entry, L("Find in conversation"))
        gtk_widget_set_name(count, "find-count")
        let previous = PageLayout.iconButton("go-up-symbolic", label: L("Previous match (newer)")) {}
        let next = PageLayout.iconButton("go-down-symbolic", label: L("Next match (older)")) {}
        let close = PageLayout.iconButton("window-close-symbolic", label: L("Close the find bar")) {}
        gtk_widget_set_name(previous, "find-previous")
        gtk_widget_set_name(next, "find-next")
        gtk_widget_set_name(close, "find-close")
        let row = UI.hbox(spacing: Style.gapSmall, [entry, count, previous, next, close])
        UI.margins(row, top: Style.gapSmall, bottom: Style.gapSmall, start: Style.gap, end: Style.gap)
        widget = UI.vbox([row, UI.vbox(classes: [Style.separator])])
        gtk_widget_set_name(widget, "find-bar")
        UI.setVisible(widget, false)

        Signals.connect(UnsafeMutableRawPointer(previous), "clicked") { [unowned self] in step(forward: false) }
        Signals.connect(UnsafeMutableRawPointer(next), "clicked") { [unowned self] in step(forward: true) }
        Signals.connect(UnsafeMutableRawPointer(close), "clicked") { [unowned self] in self.close() }
        // Every keystroke finds at once, off the main thread (as the history search does).
        Signals.connect(UnsafeMutableRawPointer(entry), "changed") { [unowned self] in run() }
        Signals.connect(UnsafeMutableRawPointer(entry), "activate") { [unowned self] in step(forward: true) }
        Signals.connect(UnsafeMutableRawPointer(entry), "stop-search") { [unowned self] in self.close() }
        Signals.onKeyPressed(entry) { [unowned self] keyval, modifiers in
            let enter: UInt32 = 0xff0d, keypadEnter: UInt32 = 0xff8d, shift: UInt32 = 1
            guard keyval == enter || keyval == keypadEnter, modifiers & shift != 0 else { return false }
            step(forward: false)
            return true
        }
        Lifetime.tie(self, to: widget)
    }

    /// Shows the bar with its text selected, ready for typing (Ctrl+F).
    func open() {
        UI.setVisible(widget, true)
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(OpaquePointer(entry), 0, -1)
        if !state.matches.isEmpty { onTerms?(SearchQuery(text).terms) }
    }

    /// F3 (Shift+F3: backwards): the next match; opens the bar when it is closed.
    func step(forward: Bool) {
        guard isOpen else { return open() }
        guard let found = forward ? state.next() : state.previous() else { return }
        showCount()
        onShow?(found)
    }

    func close() {
        guard isOpen else { return }
        UI.setVisible(widget, false)
        onTerms?([])
        onClose?()
    }

    /// Another conversation opened: its matches, if the bar is open.
    func conversationChanged() {
        if isOpen { run() }
    }

    private var text: String { UI.text(of: entry) }

    private func run() {
        let typed = text
        let query = SearchQuery(typed)
        guard let conversation = conversation?(), let search, query.expression != nil,
            typed.trimmingCharacters(in: .whitespaces).count >= HistorySearchPane.minimumLength
        else {
            state.clear()
            showCount(typed: !typed.isEmpty)
            onTerms?([])
            return
        }
        search.find(typed, in: conversation) { [weak self] found in
            guard let self, isOpen else { return }
            let first = state.replace(with: found)
            showCount(typed: true)
            onTerms?(query.terms)
            if let first { onShow?(first) }
        }
    }

    private func showCount(typed: Bool = true) {
        let shown: String
        if let position = state.position {
            shown = L("%d of %d", String(position.shown), String(position.count))
        } else {
            shown = typed && !text.isEmpty ? L("No matches") : ""
        }
        UI.setText(count, shown)
        Accessibility.setDescription(entry, shown)
    }
}
