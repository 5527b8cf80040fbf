import Foundation
import Testing

@testable import BuilderOSKit

/// The outbox and the turns, on fakes: an in-memory history, a fake socket per agent whose server
/// side the test plays, a fake REST API. No sockets and no sleeps: each step waits for the event
/// it causes. (The same behaviour over the real wire: IntegrationTests/ChatServiceTests.)
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ChatServiceOutboxTests {
    @Test func aMessageWrittenOfflineIsStoredAtOnceAndGoesOutAfterConnect() async {
        let rig = ChatRig()
        let c = rig.chat.createConversation(agent: .codex)
        let message = rig.chat.send("  later  ", in: c.id)!
        #expect(message.text == "later" && message.state == .queued)
        #expect(rig.history.queued().map(\.id) == [message.id])
        #expect(rig.sockets.made == 0, "nothing is opened before Connect")
        #expect(rig.chat.isBusy(c.id) && !rig.chat.isInFlight(c.id))

        rig.connection.connect()
        #expect(await rig.nextSent(by: .codex) == "later")
        // Handed to the socket is not sent: it counts only once the socket wrote it.
        #expect(rig.history.queued().map(\.id) == [message.id])
        await rig.socket(.codex).connect()
        await rig.waitFor(message.id, .sent)
        #expect(rig.history.queued().isEmpty)
        #expect(rig.chat.isWaitingForReply(c.id))

        await rig.socket(.codex).reply("Hel")
        let reply = await rig.nextAdded(.assistant)
        await rig.socket(.codex).reply("lo")
        await rig.socket(.codex).complete()
        await rig.waitFor(reply.id, .complete)
        #expect(rig.history.messages(in: c.id).map(\.role) == [.user, .assistant])
        #expect(rig.history.messages(in: c.id).last?.text == "Hello")
        #expect(!rig.chat.isBusy(c.id))
        #expect(rig.chat.activityToday().repliesCompletedToday == 1)
    }

    @Test func oneTurnPerAgentAtATimeInTheOrderWritten() async {
        let rig = ChatRig()
        rig.connection.connect()
        await rig.socket(.jarvis).connect()
        await rig.socket(.codex).connect()
        let a = rig.chat.createConversation(agent: .jarvis)
        let b = rig.chat.createConversation(agent: .jarvis)
        let other = rig.chat.createConversation(agent: .codex)
        rig.chat.send("first", in: a.id)
        rig.chat.send("second", in: b.id)
        rig.chat.send("third", in: a.id)
        rig.chat.send("for codex", in: other.id)

        #expect(await rig.nextSent(by: .codex) == "for codex", "another agent does not wait")
        for expected in ["first", "second", "third"] {
            #expect(await rig.nextSent(by: .jarvis) == expected)
            await rig.socket(.jarvis).reply("ok")
            await rig.socket(.jarvis).complete()
        }
        await rig.turnEnded(in: a.id)
        #expect(rig.history.queued().map(\.text) == [], "each went out exactly once")
        // Shown in the order written: "third" was stored before the first reply came.
        #expect(rig.history.messages(in: a.id).map(\.text) == ["first", "third", "ok", "ok"])
    }

    @Test func theOutboxOutlivesTheApp() async {
        let history = HistoryStore.inMemory()
        let first = ChatRig(history: history)
        let c = first.chat.createConversation(agent: .jarvis)
        first.chat.send("written before quitting", in: c.id)

        // A new session over the same store: the app started again.
        let second = ChatRig(history: history)
        #expect(second.chat.conversations.map(\.id) == [c.id])
        second.connection.connect()
        #expect(await second.nextSent(by: .jarvis) == "written before quitting")
    }

    @Test func aDisconnectLeavesAnUnsentMessageQueuedForTheNextConnect() async {
        let rig = ChatRig()
        let (c, message) = await rig.startTurn("not yet out", connected: false)
        let old = rig.socket(.jarvis)
        rig.connection.disconnect()
        _ = await old.nextCall { $0 == .shutdown }
        await rig.turnEnded(in: c.id)
        #expect(rig.history.queued().map(\.id) == [message.id])
        #expect(rig.history.messages(in: c.id).map(\.role) == [.user], "no pill: nothing was stopped by the user")

        rig.connection.connect()
        #expect(await rig.nextSent(by: .jarvis) == "not yet out")
        #expect(rig.sockets.made == 4)
    }

    @Test func aConnectBeforeTheOldSocketsLastEventStillSendsTheUnsentMessage() async {
        let rig = ChatRig()
        let (c, message) = await rig.startTurn("still wanted", connected: false)
        // Disconnect and Connect at once: the old socket's "stopped" arrives while a connection is
        // wanted again, and must not read as the user's Stop.
        rig.connection.disconnect()
        rig.connection.connect()
        #expect(await rig.nextSent(by: .jarvis) == "still wanted")
        #expect(rig.history.queued().map(\.id) == [message.id])
        #expect(rig.history.messages(in: c.id).map(\.role) == [.user])
    }

    @Test func stoppingBeforeTheServerTookItKeepsItUnsent() async {
        let rig = ChatRig()
        let (c, message) = await rig.startTurn("never mind", connected: false)
        let later = rig.chat.createConversation(agent: .jarvis)
        rig.chat.stop(c.id)
        await rig.waitFor(message.id, .stopped)
        let pill = await rig.nextAdded(.status)
        #expect(pill.text == "Stopped waiting for the reply.")

        rig.chat.send("this one", in: later.id)
        await rig.socket(.jarvis).connect()
        #expect(await rig.nextSent(by: .jarvis) == "this one", "the stopped message does not go out later")
        #expect(rig.history.messages(in: c.id).first?.state == .stopped)
    }

    @Test func aMessageNeverDeliveredIsKeptAndSendAgainDeliversIt() async {
        let rig = ChatRig()
        let (c, message) = await rig.startTurn("the one it chokes on", connected: false)
        let socket = rig.socket(.jarvis)
        for _ in 0..<ChatTurn.maxDeliveries {
            await socket.connect()
            await socket.drop()
        }
        await rig.waitFor(message.id, .failed)
        let pill = await rig.nextAdded(.status)
        #expect(pill.text == BuilderOSError.closedOnMessage(attempts: ChatTurn.maxDeliveries).userMessage)
        #expect(!rig.chat.isBusy(c.id))
        #expect(rig.history.messages(in: c.id).first?.text == "the one it chokes on")

        rig.chat.resend(rig.history.messages(in: c.id).first!)
        #expect(await rig.nextSent(by: .jarvis) == "the one it chokes on")
        await socket.connect()
        await rig.waitFor(message.id, .sent)
    }

    @Test func aDropMidReplyKeepsThePartialReplyAsInterrupted() async {
        let rig = ChatRig()
        let (c, _) = await rig.startTurn("tell me")
        await rig.socket(.jarvis).reply("half of it")
        let reply = await rig.nextAdded(.assistant)
        #expect(rig.chat.liveMessage(reply.id)?.text == "half of it")
        await rig.socket(.jarvis).drop()
        await rig.waitFor(reply.id, .interrupted)
        #expect(rig.history.messages(in: c.id).last?.text == "half of it")
        #expect(rig.history.queued().isEmpty, "a reply had begun: the message is not sent again")
    }

    @Test func aReplyOfOnlyWhiteSpaceSoFarShowsNoBubble() async {
        let rig = ChatRig()
        let (c, _) = await rig.startTurn("tell me")
        await rig.socket(.jarvis).reply("\n  ")
        await rig.socket(.jarvis).complete()
        let pill = await rig.nextAdded(.status)
        #expect(pill.text == "Jarvis sent an empty reply.")
        #expect(rig.history.messages(in: c.id).map(\.role) == [.user, .status], "no empty bubble")

        let (d, _) = await rig.startTurn("again")
        await rig.socket(.jarvis).reply("\n# ")
        await rig.socket(.jarvis).reply("Hi")
        let reply = await rig.nextAdded(.assistant)
        #expect(rig.chat.liveMessage(reply.id)?.text == "\n# Hi", "the held start is kept once it shows something")
        #expect(reply.conversation == d.id)
    }

    @Test func aReplyStoppedBeforeItShowedAnythingLeavesNoEmptyBubble() async {
        let rig = ChatRig()
        let (c, _) = await rig.startTurn("stop me halfway")
        await rig.socket(.jarvis).reply("# ")
        rig.chat.stop(c.id)
        let pill = await rig.nextAdded(.status)
        #expect(pill.text == "Stopped waiting for the reply.")
        #expect(rig.history.messages(in: c.id).map(\.role) == [.user, .status], "no empty bubble")

        let (d, _) = await rig.startTurn("draw a line")
        await rig.socket(.jarvis).reply("---")
        await rig.socket(.jarvis).complete()
        let rule = await rig.nextAdded(.assistant)
        await rig.waitFor(rule.id, .complete)
        #expect(rig.history.messages(in: d.id).last?.text == "---", "a complete reply of syntax alone is still shown")
    }

    @Test func aTurnThatFailsBeforeAnyReplySaysWhy() async {
        let rig = ChatRig()
        _ = await rig.startTurn("hello")
        await rig.socket(.jarvis).fail("model overloaded")
        let pill = await rig.nextAdded(.status)
        #expect(pill.text == "Jarvis could not answer: model overloaded" && pill.state == .failed)
    }

    @Test func deletingStopsTheTurnAndClosesTheServerSession() async {
        let rig = ChatRig()
        let (c, _) = await rig.startTurn("about to go", with: .codex, connected: false)
        rig.chat.delete(c.id)
        #expect(rig.history.conversations().isEmpty && rig.history.queued().isEmpty)
        #expect(await rig.socket(.codex).nextCall { $0 == .stopTurn } == .stopTurn)
        var closedSessions = rig.api.closedSessions.makeAsyncIterator()
        let closed = await closedSessions.next()
        #expect(closed == "codex/" + c.sessionID(deviceID: ChatRig.deviceID))
    }

    @Test func titlesRenamesAndDraftsAreStored() {
        let rig = ChatRig()
        let c = rig.chat.createConversation(agent: .jarvis)
        rig.chat.send("Hello from the **desktop**", in: c.id)
        #expect(rig.history.conversations().first?.title == "Hello from the desktop", "the first message names it, without Markdown")
        rig.chat.rename(c.id, to: "  Deploy plan ")
        rig.chat.rename(c.id, to: "   ")
        rig.chat.saveDraft(c.id, "half a thought")
        #expect(rig.history.conversations().first?.title == "Deploy plan")
        #expect(rig.history.conversations().first?.draft == "half a thought")
        rig.chat.send("second", in: c.id)
        #expect(rig.history.conversations().first?.title == "Deploy plan", "only the first message names it")
        #expect(rig.history.conversations().first?.draft == "", "sending clears the draft")
    }
}
