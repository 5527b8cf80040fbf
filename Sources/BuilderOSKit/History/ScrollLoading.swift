/// How many messages join the message list in one frame while the view moves through a long
/// conversation.
///
/// Why: a new message row costs about 6 µs a character of its text (scrolling 10,000 messages,
/// release build: styling its widgets and laying its labels' text out, several times each) — and
/// the list used to take a page of 12 messages at once: a 60–80 ms frame every tenth frame of a fast
/// scroll. Taken a few a frame by the length of their text, the same work is spread over the frames
/// that scroll through them. (Below the view only: `MessageList.olderNeeded` says why not above.)
/// Since rows that scrolling brings in stand as placeholders (`RowPlaceholders`), their content is
/// made by `RowPlaceholders.contentToMake` with the same share; the share of newer rows joining the
/// list was kept as it was (not re-measured with placeholders, which cost far less than 6 µs a character).
public enum ScrollLoading {
    /// What a row costs beyond its text (widgets, styles, caption), in characters that cost as much.
    public static let rowCharacters = 150
    /// The characters laid out per frame: about 6 ms here, a third of a frame at 60 Hz.
    public static let frameCharacters = 1_000

    /// How many of `messages`, nearest to the view first, go into the list in this frame: at
    /// least one (a message longer than a frame's share comes in alone), then more while their
    /// text stays within `characters`.
    public static func count<C: Collection>(_ messages: C, characters: Int = frameCharacters) -> Int where C.Element == ChatMessage {
        var taken = 0
        var spent = 0
        for message in messages {
            spent += rowCharacters + message.text.utf8.count
            if taken > 0, spent > characters { break }
            taken += 1
        }
        return taken
    }

    /// How many rows at one end of the list can leave it: `heights` from the farthest row inwards,
    /// `beyond` the content past the view on that side. A row goes only when it and every row
    /// farther out lie more than `lead` screens of `page` pixels from the view, so a tall window or
    /// short messages keep what is shown (and what is about to be).
    public static func droppable(heights: [Double], beyond: Double, page: Double, lead: Double) -> Int {
        let room = beyond - page * lead
        var height = 0.0
        var count = 0
        for h in heights {
            height += h
            guard height <= room else { break }
            count += 1
        }
        return count
    }
}
