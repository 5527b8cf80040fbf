import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Chat: the conversations beside the open one. New chats with Jarvis or Codex; rename; delete
/// after asking. The first message written with no conversation open starts one with Jarvis.
@MainActor
final class ChatPage: Page {
    let widget: Widget
    let sidebar: ConversationSidebar
    let view: ConversationView
    /// Export and import through the file chooser (the main menu's and the conversation's menu items).
    let transfer: HistoryTransfer
    private let context: PageContext
    private let window: @MainActor () -> Widget?

    private var chat: ChatService { context.session.chat }
    /// The conversation list's width when the page opens (px).
    static var sidebarWidth: Int32 { Layout.px("chat-sidebar-start") }

    init(context: PageContext, window: @escaping @MainActor () -> Widget?) {
        self.context = context
        self.window = window
        transfer = HistoryTransfer(chat: context.session.chat, server: context.session.server, window: window)
        sidebar = ConversationSidebar(chat: context.session.chat, search: context.session.search)
        let first = context.session.chat.conversations.first?.id
        view = ConversationView(context: context, conversation: first, window: window)
        let paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_paned_set_start_child(OpaquePointer(paned), sidebar.widget)
        gtk_paned_set_end_child(OpaquePointer(paned), view.widget)
        gtk_paned_set_resize_start_child(OpaquePointer(paned), 0)
        gtk_paned_set_shrink_start_child(OpaquePointer(paned), 0)
        gtk_paned_set_position(OpaquePointer(paned), Self.sidebarWidth)
        Accessibility.setLabel(paned, L("Conversations"))
        widget = paned
        gtk_widget_set_name(widget, "chat-page")

        sidebar.onSelect = { [unowned self] id in if id != view.conversationID { view.open(id) } }
        sidebar.onNew = { [unowned self] agent in newConversation(agent) }
        sidebar.onOpenHit = { [unowned self] hit in
            view.open(hit.conversation, at: hit.sequence)
            sidebar.select(hit.conversation)
        }
        view.ensureConversation = { [unowned self] in
            let c = chat.createConversation(agent: .jarvis)
            view.open(c.id)
            sidebar.reload(selected: c.id)
            return c.id
        }
        view.onRename = { [unowned self] id in rename(id) }
        view.onDelete = { [unowned self] id in confirmDelete(id) }
        chat.changes.add(owner: self) { [weak self] event in
            guard let self, event == .conversationsChanged else { return }
            sidebar.reload(selected: view.conversationID)
        }
        sidebar.reload(selected: first)
        addConversationActions()
        Lifetime.tie(self, to: widget)
    }

    func shown() { view.composer.focus() }

    /// `conversation.export-markdown` and `…-json` for the open conversation's menu: the page's own
    /// actions, so they work in the main window and in a window of its own alike.
    private func addConversationActions() {
        let group = g_simple_action_group_new()!
        for format in HistoryExportFormat.allCases {
            let action = g_simple_action_new("export-\(format.rawValue)", nil)!
            Signals.connect(
                UnsafeMutableRawPointer(action), "activate",
                withArgument: { [weak self] _ in
                    guard let self, let id = view.conversationID else { return }
                    transfer.export([id], as: format)
                })
            g_action_map_add_action(OpaquePointer(group), action)
            g_object_unref(UnsafeMutableRawPointer(action))
        }
        gtk_widget_insert_action_group(widget, "conversation", OpaquePointer(group))
        g_object_unref(UnsafeMutableRawPointer(group))
    }

    func openQuickActions() { view.quickActions.open() }

    /// Shows conversation `id` (one of this server's) and selects it in the list.
    func open(_ id: UUID) {
        guard chat.conversation(id) != nil else { return }
        if id != view.conversationID { view.open(id) }
        sidebar.select(id)
    }

    func newConversation(_ agent: ChatAgent) {
        let c = chat.createConversation(agent: agent)
        view.open(c.id)
        sidebar.reload(selected: c.id)
        view.composer.focus()
    }

    private func rename(_ id: UUID) {
        guard let parent = window(), let c = chat.conversation(id) else { return }
        TextPromptDialog.ask(
            parent: parent, title: L("Rename Conversation"), initial: c.title, confirm: L("_Rename"),
            name: "rename-dialog"
        ) { [weak self] title in self?.chat.rename(id, to: title) }
    }

    private func confirmDelete(_ id: UUID) {
        guard let parent = window(), let c = chat.conversation(id) else { return }
        ConfirmDialog.ask(
            parent: parent, title: L("Delete this conversation?"),
            body: L("“%@” and all its messages are deleted from this computer. This cannot be undone.", c.title),
            cancel: L("_Cancel"), confirm: L("_Delete"), destructive: true, name: "delete-confirm"
        ) { [weak self] in
            guard let self else { return }
            chat.delete(id)
            let next = chat.conversations.first?.id
            view.open(next)
            sidebar.reload(selected: next)
        }
    }
}
