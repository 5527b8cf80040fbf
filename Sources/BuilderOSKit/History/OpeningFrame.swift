/// A conversation just opened makes only the rows its first frame shows.
///
/// Every row of the conversation starts as a placeholder (`RowPlaceholders`). Once GTK has laid
/// the first frame out, the placeholders that layout put in the view get their content, and the
/// frame is laid out again (GDK repeats a frame's layout while one is asked for, up to four times)
/// — so the frame is painted with the text of every row in view, while the rows GTK keeps beyond
/// the view (a list view binds rows above and below what it shows) are made in later frames, a
/// frame's share at a time, nearest first.
///
/// Why: a list view binds, makes and measures a range of rows around what it shows, and its first
/// layout starts at the top of the rows it holds. Before, every bound row was made ahead of the first
/// frame (with the benchmark's 1,000 messages, a reply of 38 widgets and a question that frame never
/// showed), and the first frame showed the older rows' top, the newest message only from the second.
/// A character estimate of the rows' heights cannot decide ahead which rows are in view: it was
/// 609 px for a reply that measured 790.
public struct OpeningFrame: Sendable, Equatable {
    /// Layouts this mechanism asks for in one frame, after GTK's own: GDK lays a frame out at
    /// most four times and warns when asked for a fifth.
    public static let extraLayouts = 3

    /// Whether the conversation's first frame with the list on screen is still to be painted.
    public private(set) var isOpening = false
    private var layoutsAsked = 0
    private var listLaidOut = false

    public init() {}

    /// A conversation was opened: its rows start as placeholders.
    public mutating func opened() {
        isOpening = true
        layoutsAsked = 0
        listLaidOut = false
    }

    /// What to do after a layout; either way the frame is laid out again.
    public enum Step: Sendable, Equatable {
        case nothing
        /// Move the view to the conversation's end, and make these placeholders (the newest rows,
        /// which are in view there).
        case moveToEnd(make: [Int])
        /// Make these placeholders (in the view as laid out).
        case make([Int])
    }

    /// GTK laid the frame out. `listShown`: the list was laid out on screen (not on a hidden page);
    /// `offEnd`: the view should follow the conversation's end and is not at it (a list view's
    /// first layout starts at its top); `placeholdersInView`: the placeholders in the view, as laid
    /// out; `newestPlaceholders`: the placeholders among the newest rows, in view at the end
    /// (`rowsInViewAtEnd`). Off the
    /// end, the view moves there and the newest rows are made in the same step, so a frame that
    /// opens at the newest message is laid out twice, not three times.
    public mutating func laidOut(listShown: Bool, offEnd: Bool, placeholdersInView: [Int], newestPlaceholders: [Int]) -> Step {
        guard isOpening, listShown else { return .nothing }
        listLaidOut = true
        guard layoutsAsked < Self.extraLayouts, offEnd || !placeholdersInView.isEmpty else { return .nothing }
        layoutsAsked += 1
        return offEnd ? .moveToEnd(make: newestPlaceholders) : .make(placeholdersInView)
    }

    /// How many of the newest rows are in view at the conversation's end: those whose heights
    /// (`heights`, newest first, as last measured; a placeholder's is an estimate) reach the
    /// view's height, the one that reaches it included. A placeholder's estimate is mostly short
    /// of the text's real height, so this errs towards making a row too many, not one too few;
    /// one too few is made after the next layout.
    public static func rowsInViewAtEnd(heights: [Double], view: Double) -> Int {
        var covered = 0.0
        for (index, height) in heights.enumerated() {
            covered += height
            if covered >= view { return index + 1 }
        }
        return heights.count
    }

    /// How much of the view's height the first page of a conversation covers, by its rows'
    /// estimated heights: more than the view, so that rows shorter than estimated still fill it.
    public static let firstPageScreens = 1.5

    /// The first page of a conversation opened: of its newest messages' rows (`heights`, newest
    /// first, estimated), those that cover `firstPageScreens` views (`rows`, at least two when
    /// there are), and of them those that fill one view (`madeAtOnce`: made before the first
    /// layout; the others start as placeholders). Rows the list does not hold cannot be bound and
    /// made beyond the view, nor bound when the first frame moves the view to the end — which
    /// asks the X server for the monitor again. `view` 0 (not known): every row, the newest made.
    public static func firstPage(heights: [Double], view: Double) -> (rows: Int, madeAtOnce: Int) {
        guard view > 0 else { return (heights.count, min(heights.count, 1)) }
        let rows = max(rowsInViewAtEnd(heights: heights, view: view * firstPageScreens), min(heights.count, 2))
        return (rows, rowsInViewAtEnd(heights: heights, view: view))
    }

    /// The frame was painted: the opening ends if the list was on screen in it (a conversation
    /// opened on a hidden page waits for the frame that shows it).
    public mutating func painted() {
        if listLaidOut { isOpening = false }
        layoutsAsked = 0
    }
}
