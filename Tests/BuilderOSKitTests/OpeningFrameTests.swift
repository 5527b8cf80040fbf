import Testing

@testable import BuilderOSKit

/// A conversation just opened makes only the rows its first frame shows.
struct OpeningFrameTests {
    @Test func nothingHappensUntilAConversationOpens() {
        var opening = OpeningFrame()
        #expect(!opening.isOpening)
        #expect(opening.laidOut(listShown: true, offEnd: true, placeholdersInView: [0], newestPlaceholders: [1]) == .nothing)
    }

    @Test func offTheEndTheViewMovesThereWithTheNewestRowsMade() {
        // A list view's first layout starts at its top: the view goes to the newest message, whose
        // row is made in the same step; what else is in view there is made after the next layout.
        var opening = OpeningFrame()
        opening.opened()
        #expect(opening.laidOut(listShown: true, offEnd: true, placeholdersInView: [0, 1], newestPlaceholders: [2]) == .moveToEnd(make: [2]))
        #expect(opening.laidOut(listShown: true, offEnd: false, placeholdersInView: [1], newestPlaceholders: []) == .make([1]))
        #expect(opening.laidOut(listShown: true, offEnd: false, placeholdersInView: [], newestPlaceholders: []) == .nothing)
    }

    @Test func atTheEndOnlyThePlaceholdersInViewAreMade() {
        var opening = OpeningFrame()
        opening.opened()
        #expect(opening.laidOut(listShown: true, offEnd: false, placeholdersInView: [3, 4], newestPlaceholders: []) == .make([3, 4]))
    }

    @Test func aFrameIsLaidOutAtMostFourTimes() {
        // GDK repeats a frame's layout up to four times: GTK's own and three more asked for here.
        var opening = OpeningFrame()
        opening.opened()
        for _ in 0..<OpeningFrame.extraLayouts {
            #expect(opening.laidOut(listShown: true, offEnd: false, placeholdersInView: [0], newestPlaceholders: []) == .make([0]))
        }
        #expect(opening.laidOut(listShown: true, offEnd: false, placeholdersInView: [0], newestPlaceholders: []) == .nothing)
        #expect(OpeningFrame.extraLayouts == 3)
    }

    @Test func theOpeningEndsWithTheFirstFramePaintedWithTheListOnScreen() {
        var opening = OpeningFrame()
        opening.opened()
        // Opened on a hidden page: its frames do not end the opening.
        #expect(opening.laidOut(listShown: false, offEnd: true, placeholdersInView: [], newestPlaceholders: [0]) == .nothing)
        opening.painted()
        #expect(opening.isOpening)
        // The frame that shows the list does.
        #expect(opening.laidOut(listShown: true, offEnd: false, placeholdersInView: [0], newestPlaceholders: []) == .make([0]))
        opening.painted()
        #expect(!opening.isOpening)
        #expect(opening.laidOut(listShown: true, offEnd: false, placeholdersInView: [0], newestPlaceholders: []) == .nothing)
    }

    @Test func eachFrameHasItsOwnLayouts() {
        var opening = OpeningFrame()
        opening.opened()
        for _ in 0..<OpeningFrame.extraLayouts {
            _ = opening.laidOut(listShown: false, offEnd: false, placeholdersInView: [], newestPlaceholders: [])
        }
        opening.painted()
        #expect(opening.laidOut(listShown: true, offEnd: true, placeholdersInView: [], newestPlaceholders: []) == .moveToEnd(make: []))
    }

    @Test func theNewestRowsThatFillTheViewAreInViewAtTheEnd() {
        // Newest first: a reply of 600 px fills a view of 489 alone.
        #expect(OpeningFrame.rowsInViewAtEnd(heights: [600, 80, 900], view: 489) == 1)
        // Short rows: as many as reach the view's height, the one that reaches it included.
        #expect(OpeningFrame.rowsInViewAtEnd(heights: [300, 100, 900, 50], view: 489) == 3)
        #expect(OpeningFrame.rowsInViewAtEnd(heights: [300, 189, 900], view: 489) == 2)
        // Too few to fill it: all of them.
        #expect(OpeningFrame.rowsInViewAtEnd(heights: [100, 100], view: 489) == 2)
        #expect(OpeningFrame.rowsInViewAtEnd(heights: [], view: 489) == 0)
    }

    @Test func theFirstPageCoversMoreThanTheViewAndMakesWhatFillsIt() {
        // Newest first. A view of 500: rows covering 750 are held, those covering 500 made.
        let page = OpeningFrame.firstPage(heights: [300, 100, 200, 400, 100], view: 500)
        #expect(page.rows == 4 && page.madeAtOnce == 3)
        // A newest reply taller than the view: it alone is made, one more held (at least two).
        let tall = OpeningFrame.firstPage(heights: [900, 50, 50], view: 500)
        #expect(tall.rows == 2 && tall.madeAtOnce == 1)
        // A view of unknown height: every row held, the newest made.
        let unknown = OpeningFrame.firstPage(heights: [100, 100, 100], view: 0)
        #expect(unknown.rows == 3 && unknown.madeAtOnce == 1)
        let empty = OpeningFrame.firstPage(heights: [], view: 500)
        #expect(empty.rows == 0 && empty.madeAtOnce == 0)
    }
}
