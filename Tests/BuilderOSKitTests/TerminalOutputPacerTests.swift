import Foundation
import Testing

@testable import BuilderOSKit

/// How a tab hands output to VTE: one helping per parsing pass, sized from the last pass's cost.
struct TerminalOutputPacerTests {
    static func bytes(_ count: Int, _ value: UInt8 = 0x79) -> Data { Data(repeating: value, count: count) }

    @Test func oneHelpingPerPassInOrder() {
        var pacer = TerminalOutputPacer()
        pacer.receive(Data("ab".utf8))
        pacer.receive(Data("cd".utf8))
        #expect(pacer.nextHelping() == Data("abcd".utf8))
        pacer.receive(Data("ef".utf8))
        #expect(pacer.nextHelping() == nil, "nothing more until VTE's pass over the last helping")
        pacer.passFinished(took: 0.001)
        #expect(pacer.nextHelping() == Data("ef".utf8))
        pacer.passFinished(took: 0.001)
        #expect(pacer.nextHelping() == nil && !pacer.hasPending)
    }

    @Test func aHelpingIsAtMostItsSizeAndSplitsWhatArrived() {
        var pacer = TerminalOutputPacer()
        let size = pacer.helping
        pacer.receive(Self.bytes(size + 100, 1))
        pacer.receive(Self.bytes(10, 2))
        let first = pacer.nextHelping()
        #expect(first?.count == size)
        pacer.passTimedOut()
        let second = pacer.nextHelping()
        #expect(second == Self.bytes(100, 1) + Self.bytes(10, 2), "the rest, in order")
    }

    @Test func theHelpingFollowsThePassCost() {
        var pacer = TerminalOutputPacer()
        let start = pacer.helping
        pacer.receive(Self.bytes(64 << 20))
        // A pass twice the budget: the size moves halfway to what fits (a half), so to three quarters.
        _ = pacer.nextHelping()
        pacer.passFinished(took: TerminalOutputPacer.passBudget * 2)
        #expect(pacer.helping == start * 3 / 4)
        // Fast passes let it grow, up to the maximum.
        for _ in 0..<40 {
            _ = pacer.nextHelping()
            pacer.passFinished(took: TerminalOutputPacer.passBudget / 10)
        }
        #expect(pacer.helping == TerminalOutputPacer.maximumHelping)
        // Very slow passes shrink it, down to the minimum.
        for _ in 0..<40 {
            _ = pacer.nextHelping()
            pacer.passFinished(took: 10)
        }
        #expect(pacer.helping == TerminalOutputPacer.minimumHelping)
    }

    @Test func aSmallHelpingSaysNothingAboutTheSize() {
        var pacer = TerminalOutputPacer()
        let start = pacer.helping
        pacer.receive(Data("ls\r\n".utf8))
        _ = pacer.nextHelping()
        pacer.passFinished(took: 0.2)
        #expect(pacer.helping == start, "a keystroke's echo in a slow iteration does not shrink the helping")
    }

    @Test func aPassNotSeenInTimeLetsTheNextGo() {
        var pacer = TerminalOutputPacer()
        pacer.receive(Data("\u{1B}[?25l".utf8))
        pacer.receive(Data("x".utf8))
        _ = pacer.nextHelping()
        pacer.receive(Data("y".utf8))
        #expect(pacer.awaitingPass)
        pacer.passTimedOut()
        #expect(pacer.nextHelping() == Data("y".utf8))
    }

    @Test func everythingReceivedIsFedOnceInOrder() {
        var pacer = TerminalOutputPacer()
        var sent = Data(), shown = Data()
        for i in 0..<2_000 {
            let piece = Self.bytes(1 + (i * 7919) % 3_000, UInt8(i % 251))
            sent += piece
            pacer.receive(piece)
            if i % 3 == 0, let helping = pacer.nextHelping() {
                shown += helping
                pacer.passFinished(took: 0.004)
            }
        }
        while let helping = pacer.nextHelping() {
            shown += helping
            pacer.passFinished(took: 0.004)
        }
        #expect(shown == sent)
    }
}
