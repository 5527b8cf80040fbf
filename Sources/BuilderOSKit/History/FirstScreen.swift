/// How much of a conversation is shown before the window's first frame: every message shown then
/// is laid out then, and laying out message text was a third of the start-up time (perf). The
/// newest messages until about a screen and a half of text, so the view is full at once whatever
/// the messages' length; older ones follow a page per frame (`MessageList`).
public enum FirstScreen {
    /// About a screen and a half of a reply's text in a maximised window.
    public static let characters = 4_000

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
