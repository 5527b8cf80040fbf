import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The list of conversations with New Chat (Jarvis or Codex) and, above it, the search across all
/// of them (`HistorySearchPane`), whose results take the list's place while a search is typed.
/// Selecting a row opens it; `/` in the list goes to the search field.
@MainActor
final class ConversationSidebar {
    let widget: Widget
    private let list: Widget
    private let chat: ChatService
    private var rowIDs: [UUID] = []
    private var rebuilding = false
    let searchPane: HistorySearchPane?
    var onSelect: ((UUID) -> Void)?
    var onNew: ((ChatAgent) -> Void)?
    /// A search result was opened.
    var onOpenHit: ((SearchHit) -> Void)?

    init(chat: ChatService, search: HistorySearchService?) {
        self.chat = chat
        searchPane = search.map(HistorySearchPane.init)
        let scroller: Widget
        (list, scroller) = UI.scrolledList(
            name: "conversations", accessibleLabel: L("Conversations"), selection: GTK_SELECTION_SINGLE, classes: [Style.transparent])

        let newButton = gtk_menu_button_new()!
        gtk_menu_button_set_label(OpaquePointer(newButton), L("New Chat"))
        gtk_widget_set_name(newButton, "new-chat")
        Accessibility.setLabel(newButton, L("New chat"))
        UI.margins(newButton, top: Style.gapSmall, bottom: Style.gapSmall, start: Style.gapSmall, end: Style.gapSmall)

        let content = UI.stack()
        UI.addPage(content, scroller, name: "conversations", label: L("Conversations"))
        var top = [newButton]
        if let searchPane {
            top.append(searchPane.entry)
            searchPane.onSearching = { [unowned searchPane] searching in
                if searching, gtk_stack_get_child_by_name(OpaquePointer(content), "results") == nil {
                    UI.addPage(content, searchPane.results, name: "results", label: L("Search results"))
                }
                gtk_stack_set_visible_child_name(OpaquePointer(content), searching ? "results" : "conversations")
            }
            Signals.onKeyPressed(list) { keyval, modifiers in
                let slash: UInt32 = 0x2f, control: UInt32 = 1 << 2, alt: UInt32 = 1 << 3
                guard keyval == slash, modifiers & (control | alt) == 0 else { return false }
                searchPane.focus()
                return true
            }
        }
        widget = UI.vbox(classes: [Style.sidebar], top + [content])
        searchPane?.onOpen = { [unowned self] hit in onOpenHit?(hit) }
        searchPane?.onLeave = { [unowned self] in
            let row = gtk_list_box_get_selected_row(OpaquePointer(list)) ?? gtk_list_box_get_row_at_index(OpaquePointer(list), 0)
            if let row { gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self)) }
        }
        UI.size(widget, width: Layout.px("sidebar-width"))
        // The agents' popover is made when first opened: the first frame does not show it.
        UI.beforePopup(newButton) { [weak self] in
            guard gtk_menu_button_get_popover(OpaquePointer(newButton)) == nil else { return }
            let popover = gtk_popover_new()!
            let popoverBox = UI.vbox(spacing: Style.gapTiny)
            for agent in ChatAgent.allCases {
                let b = UI.button(L("Chat with %@", agent.displayName), classes: [Style.transparent]) {
                    gtk_popover_popdown(gtkCast(popover, to: GtkPopover.self))
                    self?.onNew?(agent)
                }
                gtk_widget_set_name(b, "new-chat-\(agent.rawValue)")
                UI.append(popoverBox, b)
            }
            gtk_popover_set_child(gtkCast(popover, to: GtkPopover.self), popoverBox)
            gtk_menu_button_set_popover(OpaquePointer(newButton), popover)
        }
        Signals.connect(
            UnsafeMutableRawPointer(list), "row-selected",
            withArgument: { [unowned self] row in
                guard !rebuilding, let row else { return }
                let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
                if rowIDs.indices.contains(index) { onSelect?(rowIDs[index]) }
            })
        Lifetime.tie(self, to: widget)
    }

    /// Ctrl+Shift+F: to the search field.
    func focusSearch() { searchPane?.focus() }

    /// Selects `id`'s row, as it is (a search hit opened its conversation: the list did not change).
    func select(_ id: UUID) {
        guard let index = rowIDs.firstIndex(of: id), let row = gtk_list_box_get_row_at_index(OpaquePointer(list), Int32(index)) else {
            return reload(selected: id)
        }
        rebuilding = true
        defer { rebuilding = false }
        gtk_list_box_select_row(OpaquePointer(list), row)
    }

    /// Rebuilds the rows and selects `selected`.
    func reload(selected: UUID?) {
        rebuilding = true
        defer { rebuilding = false }
        while let child = gtk_widget_get_first_child(list) { gtk_list_box_remove(OpaquePointer(list), child) }
        rowIDs = chat.conversations.map(\.id)
        for c in chat.conversations {
            let title = UI.label(c.title, classes: [Style.body], wrap: false)
            gtk_label_set_ellipsize(OpaquePointer(title), PANGO_ELLIPSIZE_END)
            let agent = UI.label(c.agent.displayName, classes: [Style.caption, Style.dim], wrap: false)
            let row = UI.vbox(spacing: Style.gapHairline, [title, agent])
            Accessibility.setLabel(row, L("%@, with %@", c.title, c.agent.displayName))
            gtk_list_box_append(OpaquePointer(list), row)
        }
        if let selected, let index = rowIDs.firstIndex(of: selected),
            let row = gtk_list_box_get_row_at_index(OpaquePointer(list), Int32(index))
        {
            gtk_list_box_select_row(OpaquePointer(list), row)
        }
    }
}
