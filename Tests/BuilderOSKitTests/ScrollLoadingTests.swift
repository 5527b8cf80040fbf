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

/// Rows that scrolling brings in stand as placeholders first; their content comes a frame's share
/// at a time, nearest the view first, and not while the view moves fast.
struct RowPlaceholderTests {
    @Test func nearestFirstWithinTheShare() {
        #expect(RowPlaceholders.contentToMake(distances: [900, 100, 400], characters: [100, 100, 100], fast: false, share: 520) == [1, 2])
        #expect(RowPlaceholders.contentToMake(distances: [900, 100, 400], characters: [100, 100, 100], fast: false, share: 1_000) == [1, 2, 0])
    }

    @Test func rowsInViewComeFirstButShareTheFrame() {
        // Three long rows in view: one a frame, not all three in one frame.
        #expect(RowPlaceholders.contentToMake(distances: [0, 0, 0, 10], characters: [3_000, 3_000, 3_000, 50], fast: false, share: 1_000) == [0])
        // Short ones in view together, before anything beyond the view.
        #expect(RowPlaceholders.contentToMake(distances: [500, 0, 0], characters: [50, 50, 50], fast: false, share: 500) == [1, 2])
    }

    @Test func atLeastOneAFrame() {
        // A reply longer than the share still gets its content, by itself.
        #expect(RowPlaceholders.contentToMake(distances: [300, 600], characters: [5_000, 10], fast: false, share: 1_000) == [0])
    }

    @Test func aFrameTakingAPageInFillsOnlyTheView() {
        // A page of older messages went in at the top: the row in view gets its content, the
        // nearer one beyond waits though the share has room for it.
        #expect(
            RowPlaceholders.contentToMake(distances: [100, 0, 400], characters: [50, 50, 50], fast: false, share: 1_000, inViewOnly: true) == [1])
        // Nothing in view: nothing this frame.
        #expect(RowPlaceholders.contentToMake(distances: [100, 400], characters: [50, 50], fast: false, share: 1_000, inViewOnly: true).isEmpty)
    }

    @Test func nothingWhileTheViewMovesFast() {
        #expect(RowPlaceholders.contentToMake(distances: [0, 0, 100], characters: [10, 10, 10], fast: true).isEmpty)
    }

    @Test func rowsNotLaidOutYetWait() {
        #expect(RowPlaceholders.contentToMake(distances: [nil, 50], characters: [10, 10], fast: false, share: 1_000) == [1])
        #expect(RowPlaceholders.contentToMake(distances: [nil, nil], characters: [10, 10], fast: false).isEmpty)
    }

    @Test func aPlaceholderIsAboutAsTallAsItsText() {
        // 150 characters at 72 a line: three lines; an empty line still takes one.
        #expect(RowPlaceholders.estimatedHeight(text: String(repeating: "a", count: 150), lineCharacters: 72, lineHeight: 20, extra: 30) == 90)
        #expect(RowPlaceholders.estimatedHeight(text: "one\n\ntwo", lineCharacters: 72, lineHeight: 20, extra: 0) == 60)
    }

    @Test func aScreenOverFourFramesIsFast() {
        var pace = ScrollPace()
        // A mouse wheel: a tenth of a screen a frame, for as long as it turns.
        for _ in 0..<20 { pace.moved(by: 80); pace.nextFrame() }
        #expect(!pace.isFast(screen: 800))
        // A fling: a screen a frame, either way.
        pace.moved(by: -800)
        #expect(pace.isFast(screen: 800))
        pace.nextFrame()
        // Still fast while the fling is among the last four frames; not once four quiet frames went by.
        for _ in 1..<ScrollPace.frames {
            pace.nextFrame()
            #expect(pace.isFast(screen: 800))
        }
        pace.nextFrame()
        #expect(!pace.isFast(screen: 800))
    }

    @Test func twoHalfScreensAreAScreen() {
        var pace = ScrollPace()
        pace.moved(by: 400)
        pace.nextFrame()
        pace.moved(by: -400)
        #expect(pace.isFast(screen: 800))
        #expect(!ScrollPace().isFast(screen: 0))
    }
}
