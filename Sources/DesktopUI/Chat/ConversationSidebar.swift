import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The list of conversations with New Chat (Jarvis or Codex). Selecting a row opens it.
@MainActor
final class ConversationSidebar {
    let widget: Widget
    private let list: Widget
    private let chat: ChatService
    private var rowIDs: [UUID] = []
    private var rebuilding = false
    var onSelect: ((UUID) -> Void)?
    var onNew: ((ChatAgent) -> Void)?

    init(chat: ChatService) {
        self.chat = chat
        list = gtk_list_box_new()
        gtk_widget_set_name(list, "conversations")
        Accessibility.setLabel(list, L("Conversations"))
        UI.addClasses(list, [Style.transparent])
        gtk_list_box_set_selection_mode(OpaquePointer(list), GTK_SELECTION_SINGLE)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), list)
        gtk_widget_set_vexpand(scroller, 1)

        let newButton = gtk_menu_button_new()!
        gtk_menu_button_set_label(OpaquePointer(newButton), L("New Chat"))
        gtk_widget_set_name(newButton, "new-chat")
        Accessibility.setLabel(newButton, L("New chat"))
        UI.margins(newButton, top: Style.gapSmall, bottom: Style.gapSmall, start: Style.gapSmall, end: Style.gapSmall)

        widget = UI.vbox(classes: [Style.sidebar], [newButton, scroller])
        UI.size(widget, width: Layout.px("sidebar-width"))
        // The agents' popover is made when first opened: the first frame does not show it.
        UI.beforePopup(newButton) { [weak self] in
            guard gtk_menu_button_get_popover(OpaquePointer(newButton)) == nil else { return }
            let popover = gtk_popover_new()!
            let popoverBox = UI.vbox(spacing: Style.gapTiny)
            for agent in ChatAgent.allCases {
                let b = UI.button(String(format: L("Chat with %@"), agent.displayName), classes: [Style.transparent]) {
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
            Accessibility.setLabel(row, String(format: L("%@, with %@"), c.title, c.agent.displayName))
            gtk_list_box_append(OpaquePointer(list), row)
        }
        if let selected, let index = rowIDs.firstIndex(of: selected),
            let row = gtk_list_box_get_row_at_index(OpaquePointer(list), Int32(index))
        {
            gtk_list_box_select_row(OpaquePointer(list), row)
        }
    }
}
