import Foundation

/// Conversations, their history and the outbox. Every message the user writes is stored first
/// (queued), shown at once, and handed to the agent's socket in order, one turn per agent at a
/// time. It is marked sent only when the socket took it, so a message survives a dropped
/// connection or a restart of the app and is delivered exactly once.
@MainActor
public final class ChatService {
    public let history: any HistoryStoring
    public let changes = Observers<ChatServiceEvent>()
    public private(set) var conversations: [Conversation]
    private let deviceID: String
    private weak var connection: ConnectionController?

    /// The turn each agent's socket is running.
    private struct ActiveTurn {
        var turnID: UUID?
        let userMessage: ChatMessage
        var reply: ChatMessage?
        var lastSaved = Date.distantPast
        /// The start of a reply, held until it would show something (`ReplyStart`: no empty bubble).
        var heldStart = ""
        /// The user pressed Stop (a Disconnect ends the turn too, but leaves an unsent message queued).
        var stopRequested = false
    }
    private var active: [ChatAgent: ActiveTurn] = [:]

    public init(history: any HistoryStoring, deviceID: String, connection: ConnectionController) {
        self.history = history
        self.deviceID = deviceID
        self.connection = connection
        conversations = history.conversations()
        seenStamp = history.writtenElsewhereStamp()
        connection.chatEvents.add(owner: self) { [weak self] agent, event in self?.handle(event, from: agent) }
        // On Connect the queued messages are handed to the new sockets at once; each goes out as
        // its socket authenticates.
        connection.changes.add(owner: self) { [weak self] snapshot in
            guard let self, snapshot.wantsConnection != self.connectionWanted else { return }
            self.connectionWanted = snapshot.wantsConnection
            self.pump()
        }
    }
    private var connectionWanted = false

    // MARK: Conversations

    public func conversation(_ id: UUID) -> Conversation? { conversations.first { $0.id == id } }

    @discardableResult
    public func createConversation(agent: ChatAgent, title: String? = nil) -> Conversation {
        let conversation = Conversation(agent: agent, title: title ?? Conversation.defaultTitle(for: agent))
        history.insert(conversation)
        conversations.insert(conversation, at: 0)
        changes.notify(.conversationsChanged)
        return conversation
    }

    public func rename(_ id: UUID, to title: String) {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let index = conversations.firstIndex(where: { $0.id == id }) else { return }
        conversations[index].title = trimmed
        history.rename(id, to: trimmed)
        changes.notify(.conversationsChanged)
    }

    /// Deletes the conversation, its history and its queued messages; tells the server to forget
    /// the session where it can (fire-and-forget).
    public func delete(_ id: UUID) {
        guard let conversation = conversation(id) else { return }
        if active[conversation.agent]?.userMessage.conversation == id {
            let client = connection?.clients[conversation.agent]
            Task { await client?.stopTurn() }
        }
        history.delete(id)
        conversations.removeAll { $0.id == id }
        if let api = connection?.api {
            let session = conversation.sessionID(deviceID: deviceID)
            Task { try? await api.closeSession(agent: conversation.agent, sessionID: session) }
        }
        changes.notify(.conversationsChanged)
    }

    public func saveDraft(_ id: UUID, _ draft: String) {
        guard let index = conversations.firstIndex(where: { $0.id == id }), conversations[index].draft != draft else { return }
        conversations[index].draft = draft
        history.saveDraft(id, draft)
    }

    // MARK: Turns

    /// Stores and shows the message at once (queued), then sends it when its turn comes.
    @discardableResult
    public func send(_ text: String, attachments: [ChatAttachment] = [], in conversationID: UUID) -> ChatMessage? {
        let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !content.isEmpty, let index = conversations.firstIndex(where: { $0.id == conversationID }) else { return nil }
        let message = history.append(
            ChatMessage(
                conversation: conversationID, role: .user, text: content,
                state: .queued, attachments: attachments))
        conversations[index].updated = message.created
        conversations[index].draft = ""
        // A conversation still called "Chat with Jarvis" takes its first message as its title.
        if conversations[index].title == Conversation.defaultTitle(for: conversations[index].agent),
            history.messageCount(in: conversationID) == 1
        {
            let title = Conversation.title(fromFirstMessage: content)
            conversations[index].title = title
            history.rename(conversationID, to: title)
            changes.notify(.conversationsChanged)
        }
        history.saveDraft(conversationID, "")
        changes.notify(.messageAdded(message))
        pump()
        return message
    }

    /// True while a message of this conversation is queued or its reply is arriving.
    public func isBusy(_ conversationID: UUID) -> Bool {
        hasActiveTurn(conversationID) || history.queued().contains { $0.conversation == conversationID }
    }

    /// True while this conversation's message is on the wire and its reply not finished (Send is
    /// disabled then; messages written offline only queue and do not block).
    public func isInFlight(_ conversationID: UUID) -> Bool {
        active.values.contains { $0.userMessage.conversation == conversationID && $0.userMessage.state != .queued }
    }

    /// Whether one of the agent's sockets holds this conversation's turn (handed over, maybe not yet sent).
    func hasActiveTurn(_ conversationID: UUID) -> Bool {
        active.values.contains { $0.userMessage.conversation == conversationID }
    }

    /// True from sending until the first chunk: the "Jarvis is thinking…" time.
    public func isWaitingForReply(_ conversationID: UUID) -> Bool {
        active.values.contains { $0.userMessage.conversation == conversationID && $0.userMessage.state != .queued && $0.reply == nil }
    }

    /// Stops waiting for this conversation's reply (the Stop button).
    public func stop(_ conversationID: UUID) {
        guard let agent = conversation(conversationID)?.agent, active[agent]?.userMessage.conversation == conversationID else { return }
        active[agent]?.stopRequested = true
        if let client = connection?.clients[agent] {
            Task { await client.stopTurn() }
        } else {
            finishWithoutSocket(agent)
        }
    }

    /// Queues a message that was not delivered (or not sent) once more: the user's "Send Again".
    public func resend(_ message: ChatMessage) {
        guard message.role == .user, message.state == .failed || message.state == .stopped else { return }
        setState(of: message, to: .queued)
        pump()
    }

    /// Hands the oldest queued message of each idle agent to its socket.
    public func pump() {
        guard let connection, connection.snapshot.wantsConnection else { return }
        let queued = history.queued()
        for agent in ChatAgent.allCases where active[agent] == nil {
            guard let next = queued.first(where: { conversation($0.conversation)?.agent == agent }),
                let conversation = conversation(next.conversation), let client = connection.clients[agent]
            else { continue }
            active[agent] = ActiveTurn(userMessage: next)
            let outgoing = OutgoingChatMessage(
                content: next.text, sessionId: conversation.sessionID(deviceID: deviceID),
                deviceId: deviceID, agent: agent, attachments: next.attachments)
            changes.notify(.turnChanged(conversation: conversation.id))
            Task {
                let turnID = await client.send(outgoing)
                guard self.active[agent]?.userMessage.id == next.id else { return }
                if let turnID { self.active[agent]?.turnID = turnID } else { self.active[agent] = nil }
            }
        }
    }

    // MARK: Socket events

    private func handle(_ event: ChatEvent, from agent: ChatAgent) {
        switch event {
        case .connection(.connected):
            pump()
        case .sent(let turn, _):
            guard var current = active[agent], current.turnID == nil || current.turnID == turn else { return }
            current.turnID = turn
            active[agent] = current
            setState(of: current.userMessage, to: .sent)
        case .delta(let turn, let text):
            // No local copy of the turn: it would share the reply's text and make every append
            // below copy all of it.
            guard active[agent]?.turnID == turn, let conversation = active[agent]?.userMessage.conversation else { return }
            if active[agent]?.reply == nil {
                let start = (active[agent]?.heldStart ?? "") + text
                guard ReplyStart.showsSomething(start) else { active[agent]?.heldStart = start; return }
                let reply = history.append(
                    ChatMessage(
                        conversation: conversation, role: .assistant,
                        text: active[agent]?.heldStart ?? "", state: .streaming))
                active[agent]?.reply = reply
                changes.notify(.messageAdded(reply))
                changes.notify(.turnChanged(conversation: conversation))
            }
            // Appended in place (no copy of the growing text per chunk).
            active[agent]?.reply?.text += text
            // Stored at most twice a second while streaming; always at the end of the turn.
            if Date().timeIntervalSince(active[agent]?.lastSaved ?? .distantPast) > 0.5, let reply = active[agent]?.reply {
                history.storeStreamingText(reply.id, text: reply.text)
                active[agent]?.lastSaved = Date()
            }
            if let id = active[agent]?.reply?.id { changes.notify(.replyGrew(message: id, conversation: conversation)) }
        case .finished(let turn):
            guard let current = active[agent], current.turnID == nil || current.turnID == turn.id else { return }
            finish(current, agent: agent, phase: turn.phase, replyText: turn.reply.visible)
        default:
            break
        }
    }

    private func finish(_ turn: ActiveTurn, agent: ChatAgent, phase: ChatTurn.Phase, replyText: String) {
        active[agent] = nil
        var current = turn
        let conversationID = current.userMessage.conversation
        if current.reply == nil, phase == .completed, current.heldStart.contains(where: { !$0.isWhitespace }) {
            // A complete reply of Markdown syntax alone (a rule, "---") is still the reply.
            current.reply = history.append(ChatMessage(conversation: conversationID, role: .assistant, text: current.heldStart, state: .streaming))
            changes.notify(.messageAdded(current.reply!))
        }
        // Deleted while its turn ran: nothing left to mark or to tell.
        guard let name = conversation(conversationID)?.agent.displayName else { pump(); return }
        // Asked of the turn, not of the connection: a Connect can come before the old socket's last event.
        let userStopped = current.stopRequested
        if phase == .stopped, userStopped, history.queued().contains(where: { $0.id == current.userMessage.id }) {
            // Stopped before it reached the server: it stays unsent rather than going out later.
            // (A Disconnect leaves it queued: the outbox sends it after Connect.)
            setState(of: current.userMessage, to: .stopped)
        }
        if case .notDelivered(let attempts) = phase {
            // Kept as the user wrote it, marked not delivered; "Send Again" queues it once more.
            setState(of: current.userMessage, to: .failed)
            let pill = history.append(
                ChatMessage(
                    conversation: conversationID, role: .status,
                    text: BuilderOSError.closedOnMessage(attempts: attempts).userMessage, state: .failed))
            changes.notify(.messageAdded(pill))
        }
        if var reply = current.reply {
            switch phase {
            case .completed: reply.state = .complete
            case .interrupted: reply.state = .interrupted
            case .stopped: reply.state = .stopped
            case .failed: reply.state = .failed
            default: reply.state = .complete
            }
            if case .failed(let why) = phase, reply.text.isEmpty { reply.text = why }
            history.update(reply.id, text: reply.text, state: reply.state)
            changes.notify(.messageChanged(reply))
        } else if case .failed(let why) = phase {
            let pill = history.append(
                ChatMessage(
                    conversation: conversationID, role: .status,
                    text: L("%@ could not answer: %@", name, why), state: .failed))
            changes.notify(.messageAdded(pill))
        } else if phase == .completed {
            // Nothing but white space came: say so rather than show an empty bubble.
            let pill = history.append(
                ChatMessage(
                    conversation: conversationID, role: .status,
                    text: L("%@ sent an empty reply.", name), state: .complete))
            changes.notify(.messageAdded(pill))
        } else if phase == .stopped, userStopped || current.userMessage.state != .queued {
            // (A Disconnect before the message went out stops nothing: it waits for Connect.)
            let pill = history.append(
                ChatMessage(
                    conversation: conversationID, role: .status,
                    text: L("Stopped waiting for the reply."), state: .stopped))
            changes.notify(.messageAdded(pill))
        }
        changes.notify(.turnChanged(conversation: conversationID))
        pump()
    }

    private func finishWithoutSocket(_ agent: ChatAgent) {
        guard let current = active[agent] else { return }
        finish(current, agent: agent, phase: .stopped, replyText: "")
    }

    private func setState(of message: ChatMessage, to state: ChatMessage.State) {
        var updated = message
        updated.state = state
        history.update(message.id, state: state)
        if active.values.contains(where: { $0.userMessage.id == message.id }) {
            for (agent, turn) in active where turn.userMessage.id == message.id {
                active[agent] = ActiveTurn(turnID: turn.turnID, userMessage: updated, reply: turn.reply, lastSaved: turn.lastSaved)
            }
        }
        changes.notify(.messageChanged(updated))
        changes.notify(.turnChanged(conversation: message.conversation))
    }

    /// A message as it is right now: a streaming reply from memory, anything else from history.
    // MARK: Export and import

    /// Writes the conversations `ids` (all when nil) to `path` (see `HistoryStoring.export`).
    public func export(_ ids: [UUID]?, as format: HistoryExportFormat, to path: String, server: String?) throws(BuilderOSError) {
        try history.export(conversations.filter { ids?.contains($0.id) ?? true }, as: format, to: path, server: server)
    }

    /// Imports a JSON export (refused whole when it is not a valid one) and shows the conversations it added.
    @discardableResult
    public func importHistory(from path: String) throws(BuilderOSError) -> HistoryImportSummary {
        let summary = try history.importHistory(HistoryImport.read(fileAt: path))
        conversations = history.conversations()
        changes.notify(.conversationsChanged)
        for id in summary.conversationsGrown { changes.notify(.messagesReplaced(conversation: id)) }
        return summary
    }

    /// What another writer (`builderos history import`, another process) wrote since: the
    /// conversations are read again when they changed. Cheap; the window calls it when it is focused.
    /// Returns whether the conversations changed.
    @discardableResult
    public func catchUpWithOtherWriters() -> Bool {
        let stamp = history.writtenElsewhereStamp()
        guard stamp != seenStamp else { return false }
        seenStamp = stamp
        let fresh = history.conversations()
        guard fresh != conversations else { return false }
        conversations = fresh
        changes.notify(.conversationsChanged)
        return true
    }

    private var seenStamp: Int64 = 0

    public func liveMessage(_ id: UUID) -> ChatMessage? {
        active.values.compactMap(\.reply).first { $0.id == id }
    }

    /// Messages to show when a conversation opens, oldest first.
    public func recentMessages(in conversationID: UUID, before: Int64? = nil, limit: Int = 100) -> [ChatMessage] {
        live(history.messages(in: conversationID, before: before, limit: limit))
    }

    /// The messages after sequence number `after`, oldest first (a list that dropped its newest
    /// messages loads them again this way).
    public func messages(in conversationID: UUID, after: Int64, limit: Int) -> [ChatMessage] {
        live(history.messages(in: conversationID, after: after, limit: limit))
    }

    /// A reply still streaming is newer in memory than on disk.
    private func live(_ stored: [ChatMessage]) -> [ChatMessage] {
        var messages = stored
        for turn in active.values {
            if let reply = turn.reply, let i = messages.firstIndex(where: { $0.id == reply.id }) { messages[i] = reply }
        }
        return messages
    }

    public func activityToday(now: Date = Date()) -> ChatActivity {
        history.activity(since: LocalTime.startOfDay(for: now))
    }
}
