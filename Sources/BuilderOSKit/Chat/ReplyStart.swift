/// Whether the start of a reply would show anything yet. White space and Markdown syntax alone
/// ("# ", "- ", "**", a fence's backticks) render as an empty bubble, so the chat holds a reply's
/// first chunks back until they would show something (or the reply completes).
public enum ReplyStart {
    static let syntax: Set<Character> = ["#", "*", "_", ">", "-", "+", "`", "~", "|", "=", "[", "]", "!", ":"]

    public static func showsSomething(_ text: String) -> Bool {
        text.contains { !$0.isWhitespace && !syntax.contains($0) }
    }
}
