import Testing

@testable import BuilderOSKit

struct ReplyAccumulatorTests {
    func visible(_ chunks: [String]) -> (shown: String, accumulator: ReplyAccumulator) {
        var acc = ReplyAccumulator()
        var shown = chunks.map { acc.append($0) }.joined()
        shown += acc.finish()
        return (shown, acc)
    }

    @Test func plainChunksConcatenateWithoutSeparators() {
        let (shown, acc) = visible(["Hel", "lo ", "world"])
        #expect(shown == "Hello world" && acc.visible == "Hello world" && acc.receivedBytes == 11)
    }

    @Test func summaryBlocksAreHidden() {
        let (shown, acc) = visible(["Answer.\n<tts-summary>Say this.</tts-summary>\nMore."])
        #expect(shown == "Answer.\n\nMore.")
        #expect(acc.receivedBytes > acc.visible.utf8.count)
    }

    @Test func summaryHiddenWhateverWhereTheChunksSplit() {
        let text = "Intro <tts-summary>spoken < text</tts-summary> outro <b>kept</b> <tts-summary>x</tts-summary>end <tts"
        let expected = "Intro  outro <b>kept</b> end <tts"
        for cut in 1..<text.count {
            let chunks = [String(text.prefix(cut)), String(text.dropFirst(cut))]
            #expect(visible(chunks).shown == expected, "cut at \(cut)")
        }
        #expect(visible(text.map { String($0) }).shown == expected)
    }

    @Test func errorPrefixedRepliesAreRecognised() {
        let (shown, acc) = visible(["Err", "or: the backend failed"])
        #expect(acc.isErrorReply)
        #expect(shown.isEmpty)
        #expect(acc.visible == "Error: the backend failed")
        let (normal, other) = visible(["Errors happen; ", "here is why."])
        #expect(!other.isErrorReply && normal == "Errors happen; here is why.")
        #expect(!visible(["E"]).accumulator.isErrorReply && visible(["E"]).shown == "E")
    }
}

struct ChatTurnTests {
    let message = OutgoingChatMessage(content: "hi", sessionId: "s", deviceId: "d", agent: .jarvis)

    @Test func completedTurn() {
        var turn = ChatTurn(message: message)
        #expect(turn.phase == .queued)
        turn.markSent()
        #expect(turn.phase == .awaitingReply && turn.sendCount == 1)
        let shown = turn.receive(chunk: "Hello")
        #expect(shown == "Hello")
        #expect(turn.phase == .streaming)
        _ = turn.complete()
        #expect(turn.phase == .completed && turn.reply.visible == "Hello")
    }

    @Test func dropBeforeAnyChunkResendsOnce() {
        var turn = ChatTurn(message: message)
        turn.markSent()
        let resend = turn.connectionDropped()
        #expect(resend)
        #expect(turn.phase == .queued)
        turn.markSent()
        #expect(turn.sendCount == 2)
        _ = turn.receive(chunk: "ok")
        _ = turn.complete()
        #expect(turn.phase == .completed)
    }

    @Test func dropMidReplyKeepsThePartialAndDoesNotResend() {
        var turn = ChatTurn(message: message)
        turn.markSent()
        _ = turn.receive(chunk: "Half an ans")
        let resend = turn.connectionDropped()
        #expect(!resend)
        #expect(turn.phase == .interrupted && turn.reply.visible == "Half an ans")
        let late = turn.receive(chunk: "late")
        #expect(late == "")
    }

    @Test func errorFrameAndErrorReply() {
        var failed = ChatTurn(message: message)
        failed.markSent()
        failed.fail("Backend down")
        #expect(failed.phase == .failed("Backend down"))
        _ = failed.complete()
        #expect(failed.phase == .failed("Backend down"))

        var disguised = ChatTurn(message: message)
        disguised.markSent()
        _ = disguised.receive(chunk: "Error: rate limited")
        _ = disguised.complete()
        #expect(disguised.phase == .failed("Error: rate limited"))
    }

    @Test func stopEndsWaiting() {
        var turn = ChatTurn(message: message)
        turn.markSent()
        turn.stop()
        #expect(turn.phase == .stopped && turn.isFinished)
        let resend = turn.connectionDropped()
        #expect(!resend)
    }
}
