/// Rows that scrolling brings into the message list stand first as placeholders (an empty bubble
/// of about the message's size, its caption and accessible name already there), and get their
/// content a frame's share at a time: nearest the view first, and none while the view moves fast.
///
/// Why: a row's content costs its making, styling and text layout — a page of replies takes several
/// frames' worth of time — and a fling, the scrollbar dragged
/// or Page Up held brings a page into view every frame. Made at once, every such frame was late;
/// made while the view rests or moves at a reader's pace, the same work is spread over frames that
/// have time for it, and rows loaded ahead of the view (`MessageList.lead`) are ready before they
/// come into it.
public enum RowPlaceholders {
    /// Which placeholder rows get their content in this frame. `distances`: each placeholder's
    /// distance from the view in pixels (0: in or next to it; nil: not laid out yet, so where it is
    /// is not known and it waits a frame); `characters`: its text's length. Nearest first while
    /// within `share` characters (with `ScrollLoading.rowCharacters` for each row), at least one a
    /// frame (a longer one alone); none while `fast`. `inViewOnly`: the frame has other work (a page
    /// of older messages taken in at the top, the costliest a scrolling frame has), so only the
    /// placeholders in view get theirs, and those beyond wait for the next frame.
    public static func contentToMake(
        distances: [Double?], characters: [Int], fast: Bool,
        share: Int = ScrollLoading.frameCharacters, inViewOnly: Bool = false
    ) -> [Int] {
        guard !fast else { return [] }
        let known = distances.indices.compactMap { i in distances[i].map { (index: i, distance: $0) } }
            .filter { !inViewOnly || $0.distance == 0 }
            .sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }
        var made: [Int] = []
        var spent = 0
        for row in known {
            spent += ScrollLoading.rowCharacters + characters[row.index]
            if !made.isEmpty, spent > share { break }
            made.append(row.index)
        }
        return made
    }

    /// About how tall a message's bubble is before its content is made: its text's lines (every
    /// line of the text at least one, `lineCharacters` to a line) `lineHeight` apart, and `extra`
    /// for the bubble's padding and the space between blocks.
    public static func estimatedHeight(text: String, lineCharacters: Int, lineHeight: Double, extra: Double) -> Double {
        // One pass over the scalars: a reply's rows are estimated while the view scrolls past them.
        let perLine = max(lineCharacters, 1)
        var lines = 0, length = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                lines += max(1, (length + perLine - 1) / perLine)
                length = 0
            } else {
                length += 1
            }
        }
        lines += max(1, (length + perLine - 1) / perLine)
        return Double(lines) * lineHeight + extra
    }
}

/// How fast the user moves the message list's view: fast while it has moved a screen or more over
/// the last `frames` frames (a fling, the scrollbar dragged, Page Up held), not at a mouse wheel's
/// or a reader's pace (a wheel's notch is a tenth of a screen or less). Only the user's own moves
/// count: the list moving its view to keep what is shown in place (rows measured or added above)
/// is not scrolling.
public struct ScrollPace: Sendable, Equatable {
    public static let frames = 4
    private var moves: [Double] = []
    private var thisFrame = 0.0

    public init() {}

    /// The user moved the view by `delta` pixels (either way).
    public mutating func moved(by delta: Double) { thisFrame += abs(delta) }

    /// A frame went by: what moved in it counts among the last `frames`.
    public mutating func nextFrame() {
        moves.append(thisFrame)
        if moves.count > Self.frames { moves.removeFirst(moves.count - Self.frames) }
        thisFrame = 0
    }

    /// Whether the view moved `screen` pixels or more over the last frames (this one included).
    public func isFast(screen: Double) -> Bool { screen > 0 && moves.reduce(thisFrame, +) >= screen }
}
