import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// One open conversation: its title bar (rename, delete), the message list or the welcome view,
/// "Jarvis is thinking…", attachments and the composer. Follows the chat service's events.
@MainActor
final class ConversationView {
    let widget: Widget
    let messages = MessageList()
    let composer: Composer
    let quickActions = QuickActions()
    let attachments = AttachmentTray()
    /// Made at the first Ctrl+F or F3 (hidden until then, it is not part of the first frame).
    private var madeFindBar: FindBar?
    private var findBar: FindBar { madeFindBar ?? makeFindBar() }
    private let separator = UI.vbox(classes: [Style.separator])
    private let context: PageContext
    private let window: @MainActor () -> Widget?
    private let title = UI.label("", classes: [Style.headline], wrap: false)
    private let agentLabel = UI.label("", classes: [Style.caption, Style.dim], wrap: false)
    private let titleBar: Widget
    private let body: Widget
    private let thinking: Widget
    private let thinkingText = UI.label("", classes: [Style.label, Style.dim], wrap: false)
    private let spinner = Spinner.make(label: L("Waiting"))
    private(set) var conversationID: UUID?
    /// Asks the page to create a conversation for a first message written with none open.
    var ensureConversation: (() -> UUID)?
    var onRename: ((UUID) -> Void)?
    var onDelete: ((UUID) -> Void)?

    private var chat: ChatService { context.session.chat }

    /// - Parameter conversation: the conversation to show first (nil: the welcome view).
    init(context: PageContext, conversation: UUID?, window: @escaping @MainActor () -> Widget?) {
        self.context = context
        self.window = window
        composer = Composer(quickActions: quickActions.button)
        gtk_widget_set_name(title, "conversation-title")
        gtk_label_set_ellipsize(OpaquePointer(title), PANGO_ELLIPSIZE_END)
        let rename = PageLayout.iconButton("document-edit-symbolic", label: L("Rename conversation")) {}
        let delete = PageLayout.iconButton("user-trash-symbolic", label: L("Delete conversation")) {}
        let export = UI.menuButton(
            icon: "document-save-symbolic", label: L("Export conversation"),
            items: [(L("Export as _Markdown…"), "conversation.export-markdown"), (L("Export as _JSON…"), "conversation.export-json")])
        gtk_widget_set_name(export, "export-conversation")
        gtk_widget_set_name(rename, "rename-conversation")
        gtk_widget_set_name(delete, "delete-conversation")
        titleBar = UI.hbox(spacing: Style.gapSmall, [UI.vbox([title, agentLabel]), UI.spacer(vertical: false), export, rename, delete])
        UI.margins(titleBar, top: Style.gapSmall, bottom: Style.gapSmall, start: Style.gap, end: Style.gap)

        // The welcome view is made when an empty conversation first shows (`showBody`); the stack
        // measures only the child it shows either way.
        body = UI.stack()
        UI.addPage(body, messages.widget, name: "messages", label: L("Messages"))
        gtk_widget_set_vexpand(body, 1)
        Spinner.setSpinning(spinner, true)
        gtk_widget_set_name(thinkingText, "thinking")
        thinking = UI.hbox(spacing: Style.gapSmall, [spinner, thinkingText])
        UI.margins(thinking, top: Style.gapTiny, bottom: Style.gapTiny, start: Style.gap + Style.gapTiny, end: Style.gap)
        widget = UI.vbox([titleBar, separator, body, thinking, attachments.widget, composer.widget])
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_name(widget, "conversation-view")

        messages.lookup = { [unowned self] id in chat.liveMessage(id) }
        messages.resend = { [unowned self] message in chat.resend(message) }
        messages.loadOlder = { [unowned self] before in
            guard let id = conversationID else { return [] }
            return chat.recentMessages(in: id, before: before, limit: MessageList.olderPage)
        }
        messages.loadNewer = { [unowned self] after in
            guard let id = conversationID else { return [] }
            return chat.messages(in: id, after: after, limit: MessageList.newerPage)
        }
        messages.showNewest = { [unowned self] in showNewest() }
        composer.canSendExtra = { [unowned self] in !attachments.uploading }
        composer.onSend = { [unowned self] in send(composer.text) }
        composer.onStop = { [unowned self] in if let id = conversationID { chat.stop(id) } }
        composer.onAttach = { [unowned self] in chooseFile() }
        composer.onChange = { [unowned self] text in if let id = conversationID { chat.saveDraft(id, text) } }
        attachments.onChange = { [unowned self] in composer.refresh() }
        quickActions.onCommand = { [unowned self] command in send(command, keepInput: true) }
        quickActions.onSettings = { [unowned self] in self.context.activate("app.preferences") }
        Signals.connect(UnsafeMutableRawPointer(rename), "clicked") { [unowned self] in if let id = conversationID { onRename?(id) } }
        Signals.connect(UnsafeMutableRawPointer(delete), "clicked") { [unowned self] in if let id = conversationID { onDelete?(id) } }
        Signals.onFilesDropped(widget) { [unowned self] paths in
            attachments.add(paths)
            return !paths.isEmpty
        }
        // Ctrl+F and F3 (Shift+F3 backwards) wherever the focus is in the conversation.
        Signals.onKeyPressed(widget) { [unowned self] keyval, modifiers in
            let f: UInt32 = 0x66, f3: UInt32 = 0xffc0, control: UInt32 = 4, shift: UInt32 = 1
            let mods = modifiers & (control | shift)
            if keyval == f, mods == control, conversationID != nil {
                findBar.open()
                return true
            }
            guard keyval == f3, mods & control == 0, conversationID != nil else { return false }
            findBar.step(forward: mods & shift == 0)
            return true
        }
        chat.changes.add(owner: self) { [weak self] in self?.handle($0) }
        context.session.connection.changes.add(owner: self) { [weak self] _ in self?.refreshTurn() }
        Lifetime.tie(self, to: widget)
        open(conversation)
    }

    /// Shows a conversation (nil: the welcome view, ready for a first message); with `sequence`, from
    /// that message on, highlighted (a search result), with older and newer ones as scrolling needs them.
    func open(_ id: UUID?, at sequence: Int64? = nil) {
        conversationID = id
        let conversation = id.flatMap { chat.conversation($0) }
        UI.setVisible(titleBar, conversation != nil)
        let agent = conversation?.agent ?? .jarvis
        UI.setText(title, conversation?.title ?? "")
        UI.setText(agentLabel, agent.displayName)
        composer.setPlaceholder(L("Ask %@…", agent.displayName))
        composer.setText(conversation?.draft ?? "")
        let shownFrom = id.flatMap { id in sequence.map { showFrom($0, in: id) } } ?? false
        if !shownFrom { showNewest() }
        showBody()
        refreshTurn()
        madeFindBar?.conversationChanged()
    }

    private func makeFindBar() -> FindBar {
        let bar = FindBar(search: context.session.search)
        gtk_box_insert_child_after(gtkCast(widget, to: GtkBox.self), bar.widget, separator)
        bar.conversation = { [unowned self] in conversationID }
        bar.onTerms = { [unowned self] terms in
            messages.findTerms = terms
            if terms.isEmpty { messages.mark(nil) }
        }
        bar.onShow = { [unowned self] found in reveal(found) }
        bar.onClose = { [unowned self] in composer.focus() }
        madeFindBar = bar
        return bar
    }

    /// Shows the conversation from the message numbered `sequence` on, that one ringed; false when
    /// it has no such message.
    private func showFrom(_ sequence: Int64, in id: UUID) -> Bool {
        let page = chat.messages(in: id, after: sequence - 1, limit: MessageList.firstPage)
        guard let target = page.first, target.sequence == sequence else { return false }
        messages.show(from: page, highlighting: target.id, newestLoaded: chat.messages(in: id, after: page.last!.sequence, limit: 1).isEmpty)
        return true
    }

    /// A find bar match: ringed in place when the list has it, else read from history around it.
    private func reveal(_ found: FoundMessage) {
        guard let id = conversationID, !messages.reveal(found.id) else { return }
        _ = showFrom(found.sequence, in: id)
    }

    /// The conversation from its newest messages: the list keeps those that fill its view
    /// (`OpeningFrame.firstPage`), older ones come as needed.
    private func showNewest() {
        messages.show(conversationID.map { chat.recentMessages(in: $0, limit: MessageList.firstPage) } ?? [], viewHeight: messagesHeight())
    }

    /// The height the messages have; before their first allocation, the height the main window
    /// opens at less the header, the title bar and the composer.
    private func messagesHeight() -> Double {
        let height = Int(gtk_widget_get_height(messages.widget))
        return Double(height > 0 ? height : context.settings.windowHeight - Self.chromeHeight)
    }

    /// The header bar, the conversation's title bar and the composer, about (px).
    private static var chromeHeight: Int { Int(Layout.px("chat-chrome")) }

    private func showBody() {
        let empty = messages.count == 0
        if empty, gtk_stack_get_child_by_name(OpaquePointer(body), "welcome") == nil {
            UI.addPage(body, WelcomeView.make(), name: "welcome", label: L("Welcome"))
        }
        gtk_stack_set_visible_child_name(OpaquePointer(body), empty ? "welcome" : "messages")
    }

    private func handle(_ event: ChatServiceEvent) {
        switch event {
        case .conversationsChanged:
            if let id = conversationID, let c = chat.conversation(id) { UI.setText(title, c.title) }
        case .messageAdded(let m) where m.conversation == conversationID:
            messages.append(m)
            showBody()
        case .messageChanged(let m) where m.conversation == conversationID:
            messages.update(m)
        case .replyGrew(let id, let c) where c == conversationID:
            messages.updateLater(id)
        case .turnChanged(let c) where c == conversationID:
            refreshTurn()
        case .messagesReplaced(let c) where c == conversationID:
            showNewest()
            showBody()
        default:
            break
        }
    }

    private func refreshTurn() {
        guard let id = conversationID else {
            UI.setVisible(thinking, false)
            composer.setBusy(false)
            return
        }
        let agent = chat.conversation(id)?.agent ?? .jarvis
        UI.setText(thinkingText, L("%@ is thinking…", agent.displayName))
        UI.setVisible(thinking, chat.isWaitingForReply(id))
        composer.setBusy(chat.isInFlight(id))
    }

    /// Uploads the attachments (if any), then sends. The text stays in the field until both worked.
    func send(_ text: String, keepInput: Bool = false) {
        let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !content.isEmpty else { return }
        let id = conversationID ?? ensureConversation?()
        guard let id else { return }
        if attachments.files.isEmpty {
            chat.send(content, in: id)
            if !keepInput { composer.setText("") }
            return
        }
        let rest = context.session.connection.api
        Task { [weak self] in
            guard let self else { return }
            do {
                let uploaded = try await attachments.uploadAll(with: rest)
                chat.send(content, attachments: uploaded, in: id)
                attachments.clear()
                if !keepInput { composer.setText("") }
            } catch {
                // The tray says what failed; the text and the files stay for another try.
            }
        }
    }

    private func chooseFile() {
        guard let parent = window() else { return }
        let chooser = gtk_file_chooser_native_new(
            L("Attach a File"), gtkCast(parent, to: GtkWindow.self),
            GTK_FILE_CHOOSER_ACTION_OPEN, L("_Attach"), L("_Cancel"))!
        gtk_file_chooser_set_select_multiple(chooser, 1)
        Signals.connect(
            UnsafeMutableRawPointer(chooser), "response",
            withArgument: { [weak self] _ in
                var paths: [String] = []
                if let files = gtk_file_chooser_get_files(chooser) {
                    for i in 0..<g_list_model_get_n_items(files) {
                        if let file = g_list_model_get_item(files, i) {
                            if let path = g_file_get_path(OpaquePointer(file)) { paths.append(String(cString: path)); g_free(path) }
                            g_object_unref(file)
                        }
                    }
                    g_object_unref(UnsafeMutableRawPointer(files))
                }
                self?.attachments.add(paths)
                g_object_unref(UnsafeMutableRawPointer(chooser))
            })
        gtk_native_dialog_show(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self))
    }
}
