/// How much of a conversation is shown before the window's first frame: every message shown then
/// is laid out then, and laying out message text is the largest share of the start-up time that
/// is the app's own (perf). The newest messages until a screenful of text and a quarter more, so
/// the view is full at once whatever the messages' length; older ones follow a page per frame
/// (`MessageList`).
public enum FirstScreen {
    /// The budget when the area is not known: about a screen and a quarter of a 1000 × 720 window.
    public static let characters = 3_000

    /// About how many characters of body text fill a `width` × `height` message area, and a
    /// quarter more: a line holds about one character per half the font size, and lines are
    /// `lineHeight` font sizes apart. Headings, code and the space between blocks make a real
    /// screen hold less, so this errs towards a full view.
    public static func characters(width: Int, height: Int, fontSize: Double, lineHeight: Double) -> Int {
        guard width > 0, height > 0, fontSize > 0, lineHeight > 0 else { return characters }
        let perLine = Double(width) / (fontSize * 0.5)
        let lines = Double(height) / (fontSize * lineHeight)
        return Int(perLine * lines * 1.25)
    }

    /// The newest of `messages` (oldest first, as stored) that fill the first screen: at least
    /// `minimum` (or all there are), then more while their text stays within `characters`.
    public static func messages(_ messages: [ChatMessage], characters: Int = characters, minimum: Int = 2) -> [ChatMessage] {
        var kept = 0
        var total = 0
        for message in messages.reversed() {
            total += message.text.utf8.count
            if kept >= minimum, total > characters { break }
            kept += 1
        }
        return Array(messages.suffix(kept))
    }
}
