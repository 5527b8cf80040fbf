import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The search field over the conversation list and its results: every conversation's messages,
/// grouped by conversation (the newest first), each hit with the date, who wrote it and a snippet
/// with the matched words in bold. Down moves from the field to the results, Enter opens the
/// first or the chosen one, Escape clears the search and returns to the conversations. Typing while a
/// result has the focus goes on with the search: GTK's key capture hands the key to the field (input
/// methods included), and the field takes the focus back. The results list is made at the first
/// search: the first frame does not show it.
@MainActor
final class HistorySearchPane {
    let entry: Widget
    private let search: HistorySearchService
    /// The result rows, reused from keystroke to keystroke (those not needed are hidden).
    private var slots: [SearchResultRow] = []
    /// Said when the search starts (text typed) or ends (cleared), to swap the list and the results.
    var onSearching: ((Bool) -> Void)?
    var onOpen: ((SearchHit) -> Void)?
    /// Escape: the search is over, back to the conversations.
    var onLeave: (() -> Void)?
    private(set) var searching = false
    /// The hits the rows show, in the rows' order.
    private var shown: [SearchHit] = []

    init(search: HistorySearchService) {
        self.search = search
        entry = gtk_search_entry_new()
        gtk_widget_set_name(entry, "history-search")
        Accessibility.setLabel(entry, L("Search all chats"))
        UI.margins(entry, bottom: Style.gapSmall, start: Style.gapSmall, end: Style.gapSmall)
        showIndexProgress(search.indexProgress)
        search.indexChanges.add(owner: self) { [weak self] progress in self?.showIndexProgress(progress) }

        // Every keystroke searches at once (off the main thread; a newer query drops the older ones).
        // GtkSearchEntry's own "search-changed" waits 150 ms, and did not follow text set by code.
        Signals.connect(UnsafeMutableRawPointer(entry), "changed") { [unowned self] in
            takeFocusFromResults()
            run()
        }
        // Enter on a result reaches the field too (the key capture hands it over): the result with the focus opens.
        Signals.connect(UnsafeMutableRawPointer(entry), "activate") { [unowned self] in
            if let hit = focusedResult() ?? shown.first { onOpen?(hit) }
        }
        Signals.connect(UnsafeMutableRawPointer(entry), "stop-search") { [unowned self] in leave() }
        Signals.onKeyPressed(entry) { [unowned self] keyval, _ in
            let down: UInt32 = 0xff54
            guard keyval == down, let list = madeResults?.list, !shown.isEmpty, let row = gtk_list_box_get_row_at_index(OpaquePointer(list), 0)
            else {
                return false
            }
            gtk_list_box_select_row(OpaquePointer(list), row)
            gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
            return true
        }
        Lifetime.tie(self, to: entry)
    }

    private var madeResults: (scroller: Widget, list: Widget)?

    /// The results: a scrolled list, made when first asked for, its rows reused from keystroke to keystroke
    /// (`slots`).
    var results: Widget { (madeResults ?? makeResults()).scroller }

    private func makeResults() -> (scroller: Widget, list: Widget) {
        let (list, scroller) = UI.scrolledList(
            name: "search-results", accessibleLabel: L("Search results"), selection: GTK_SELECTION_BROWSE, classes: [Style.transparent])
        // Each row's conversation heading is its header: GtkListBox places it above the row, outside
        // the row's selection. Given once; the row shows or hides it (`SearchResultRow.show`).
        gtk_list_box_set_header_func(
            OpaquePointer(list),
            { row, _, _ in
                guard let row, let heading = g_object_get_data(UnsafeMutablePointer(OpaquePointer(row)), SearchResultRow.headingKey),
                    gtk_list_box_row_get_header(row) != heading.assumingMemoryBound(to: GtkWidget.self)
                else { return }
                gtk_list_box_row_set_header(row, heading.assumingMemoryBound(to: GtkWidget.self))
            }, nil, nil)
        UI.setVisible(nothingFound, false)
        gtk_list_box_set_placeholder(OpaquePointer(list), nothingFound)
        Signals.onKeyPressed(list) { [unowned self] keyval, _ in
            let escape: UInt32 = 0xff1b
            guard keyval == escape else { return false }
            leave()
            return true
        }
        Signals.connect(
            UnsafeMutableRawPointer(list), "row-activated",
            withArgument: { [unowned self] row in
                guard let row else { return }
                let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
                if index < shown.count { onOpen?(shown[index]) }
            })
        // Keys typed on a result go to the field (not arrows, Tab, Page keys or shortcuts: those move in the list),
        // after what was typed before: the field's cursor goes to its end when a result takes the focus.
        gtk_search_entry_set_key_capture_widget(OpaquePointer(entry), list)
        let focus = gtk_event_controller_focus_new()!
        Signals.connect(UnsafeMutableRawPointer(focus), "enter") { [unowned self] in gtk_editable_set_position(OpaquePointer(entry), -1) }
        gtk_widget_add_controller(list, focus)
        madeResults = (scroller, list)
        return (scroller, list)
    }

    /// The result row that has the keyboard focus, if any.
    private func focusedResult() -> SearchHit? {
        guard let list = madeResults?.list, let window = gtk_widget_get_root(entry), let focus = gtk_root_get_focus(window),
            let row = gtk_widget_get_ancestor(focus, gtk_list_box_row_get_type()), gtk_widget_is_ancestor(row, list) != 0
        else { return nil }
        let index = Int(gtk_list_box_row_get_index(gtkCast(row, to: GtkListBoxRow.self)))
        return index < shown.count ? shown[index] : nil
    }

    /// A key typed on a result changed the text: the field takes the focus, its cursor after the text (grabbing
    /// the focus the usual way would select the text, and the next key would replace it).
    private func takeFocusFromResults() {
        guard let list = madeResults?.list, let window = gtk_widget_get_root(entry),
            let focus = gtk_root_get_focus(window), gtk_widget_is_ancestor(focus, list) != 0,
            let text = gtk_editable_get_delegate(OpaquePointer(entry))
        else { return }
        _ = gtk_text_grab_focus_without_selecting(UnsafeMutablePointer<GtkText>(text))
        gtk_editable_set_position(OpaquePointer(entry), -1)
    }

    /// Shown in place of the rows when a search found nothing (the list's placeholder).
    private lazy var nothingFound: Widget = {
        let label = UI.label(L("No messages found."), classes: [Style.body, Style.dim], wrap: true)
        UI.margins(label, top: Style.gap, start: Style.gapSmall, end: Style.gapSmall)
        return label
    }()

    func focus() {
        gtk_widget_grab_focus(entry)
    }

    /// The placeholder says how far indexing an older history has come (its results are partial until then).
    private func showIndexProgress(_ progress: SearchIndexProgress) {
        let text =
            progress.isComplete
            ? L("Search all chats")
            : L("Indexing… %d%%", String(Int(progress.fraction * 100)))
        Properties.setString(UnsafeMutableRawPointer(entry), "placeholder-text", text)
    }

    /// Messages a search lists: the newest that match. The list lays out every row at once (GtkListBox),
    /// so fewer rows keep a keystroke's frame short.
    static let shownHits = 20
    /// A single letter matches nearly every message: the search starts at two.
    static let minimumLength = 2

    private func run() {
        let text = UI.text(of: entry)
        let active = text.trimmingCharacters(in: .whitespaces).count >= Self.minimumLength
        if active != searching {
            searching = active
            onSearching?(active)
        }
        guard active else { return show([], for: "") }
        search.search(text, limit: Self.shownHits) { [weak self] hits in self?.show(hits, for: text) }
    }

    private func leave() {
        UI.setText(ofEditable: entry, "")
        if searching {
            searching = false
            onSearching?(false)
        }
        onLeave?()
    }

    private func show(_ hits: [SearchHit], for text: String) {
        guard let list = madeResults?.list else { return }
        // For the benchmark and the checks: which query the rows show.
        WidgetTree.setStateName(list, "results \(hits.count) for \(text)")
        // The rows in the order shown: grouped by conversation, the group's heading over its first hit.
        var ordered: [SearchResultRow.Content] = []
        for group in hits.grouped() {
            for (index, hit) in group.hits.enumerated() {
                ordered.append(.init(hit: hit, heading: index == 0 ? .init(title: group.title, agent: group.agent) : nil))
            }
        }
        shown = ordered.map(\.hit)
        UI.setVisible(nothingFound, !text.isEmpty && hits.isEmpty)
        while slots.count < ordered.count {
            let slot = SearchResultRow()
            gtk_list_box_append(OpaquePointer(list), slot.row)
            slots.append(slot)
        }
        for (index, slot) in slots.enumerated() {
            slot.show(index < ordered.count ? ordered[index] : nil)
        }
    }
}
