import Foundation
import Testing
@testable import BuilderOSKit

/// The first screen: the newest messages until a screenful of text (and a quarter more).
struct FirstScreenTests {
    let conversation = UUID()

    func messages(_ lengths: [Int]) -> [ChatMessage] { ChatMessage.replies(lengths: lengths, in: conversation) }

    @Test func shortMessagesAreAllKept() {
        let all = messages([50, 60, 70, 80, 90, 100, 110, 120])
        #expect(FirstScreen.messages(all) == all)
    }

    @Test func longRepliesStopTheScreenEarly() {
        let all = messages([3_000, 200, 3_000, 100, 2_500])
        // 2,500 + 100 = 2,600 fits; with the next 3,000 it would not.
        #expect(FirstScreen.messages(all, characters: 4_000) == Array(all.suffix(2)))
    }

    @Test func theBudgetFollowsTheArea() {
        // Body text at 15 px with lines 1.4 apart: 700 × 525 px hold 93 × 25 characters; a quarter more.
        #expect(FirstScreen.characters(width: 700, height: 525, fontSize: 15, lineHeight: 1.4) == 2_916)
        let small = FirstScreen.characters(width: 500, height: 400, fontSize: 15, lineHeight: 1.4)
        let maximised = FirstScreen.characters(width: 1_600, height: 900, fontSize: 15, lineHeight: 1.4)
        #expect(small < 2_916 && maximised > 4 * small)
        // A larger font fits fewer characters; an unknown area falls back to the default.
        #expect(FirstScreen.characters(width: 700, height: 525, fontSize: 20, lineHeight: 1.4) < 2_916)
        #expect(FirstScreen.characters(width: 0, height: 525, fontSize: 15, lineHeight: 1.4) == FirstScreen.characters)
    }

    @Test func aLargeWindowShowsMoreOfTheConversation() {
        let all = messages([1_500, 1_500, 1_500, 1_500, 1_500, 1_500])
        let budget = FirstScreen.characters(width: 1_600, height: 900, fontSize: 15, lineHeight: 1.4)
        #expect(FirstScreen.messages(all, characters: budget) == all)
        #expect(FirstScreen.messages(all, characters: 3_000).count == 2)
    }

    @Test func theNewestAreKeptWhateverTheirLength() {
        let all = messages([10, 20, 9_000, 8_000])
        #expect(FirstScreen.messages(all) == Array(all.suffix(2)))
        #expect(FirstScreen.messages(Array(all.suffix(1))) == Array(all.suffix(1)))
        #expect(FirstScreen.messages([]) == [])
    }

    @Test func theOrderStaysOldestFirst() {
        let all = messages([1, 2, 3])
        #expect(FirstScreen.messages(all).map(\.text.count) == [1, 2, 3])
    }
}
