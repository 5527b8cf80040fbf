import Foundation
import Testing
@testable import BuilderOSKit

/// Messages join the list a frame's share at a time, by the length of their text.
struct ScrollLoadingTests {
    let conversation = UUID()

    func messages(_ lengths: [Int]) -> [ChatMessage] { ChatMessage.replies(lengths: lengths, in: conversation) }

    @Test func shortMessagesComeInTogether() {
        // Questions of about 70 characters: five fit 1,000 characters with the rows' own cost.
        #expect(ScrollLoading.count(messages(Array(repeating: 50, count: 12)), characters: 1_000) == 5)
    }

    @Test func aLongReplyComesInAlone() {
        // Never none: a reply longer than a frame's share still comes in, by itself.
        #expect(ScrollLoading.count(messages([3_000, 70, 70]), characters: 1_000) == 1)
        #expect(ScrollLoading.count(messages([70, 3_000]), characters: 1_000) == 1)
    }

    @Test func theShareIsCountedNearestFirst() {
        // The caller passes the messages nearest to the view first; the count takes from there.
        #expect(ScrollLoading.count(messages([100, 100, 2_000]), characters: 1_000) == 2)
        #expect(ScrollLoading.count(messages([2_000, 100, 100]), characters: 1_000) == 1)
    }

    @Test func nothingToTakeIsZero() {
        #expect(ScrollLoading.count([ChatMessage](), characters: 1_000) == 0)
    }

    @Test func rowsFarBeyondTheViewCanGo() {
        // 5,000 px below a 1,000 px view with two screens of lead: 3,000 px of rows may go.
        #expect(ScrollLoading.droppable(heights: [1_000, 1_000, 500, 800], beyond: 5_000, page: 1_000, lead: 2) == 3)
    }

    @Test func rowsNearTheViewStay() {
        // Short messages in a tall window: nothing is far enough to go, however many rows there are.
        #expect(ScrollLoading.droppable(heights: Array(repeating: 60, count: 40), beyond: 2_000, page: 2_000, lead: 2) == 0)
        // A row that reaches into the lead keeps the rows beyond it too (they go in order, farthest first).
        #expect(ScrollLoading.droppable(heights: [4_000, 100], beyond: 3_500, page: 1_000, lead: 2) == 0)
    }
}

