/// Text from a server made safe to show where control characters act instead of showing: a terminal
/// (escape sequences that write the clipboard, retitle the window, clear the screen or move the cursor
/// to rewrite earlier lines), or a one-line message. Every control character becomes a visible escape
/// such as `\u{1B}`; nothing is dropped, so what the server sent can still be read.
public enum VisibleText {
    /// Keeps line feeds and tabs (a reply's layout); `\r\n` becomes `\n`. Escapes every other C0
    /// control, DEL, the C1 controls (U+0080–U+009F: U+009B is a one-byte CSI) and the bidi overrides
    /// and isolates that make text read differently from what it is.
    public static func escapingControls(_ text: String) -> String {
        // Fast path: nearly all text has nothing to escape.
        guard text.unicodeScalars.contains(where: { needsEscape($0) || $0 == "\r" }) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { continue }
            if scalar == "\r" || needsEscape(scalar) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// One line of at most `limit` characters: line breaks become spaces, controls are escaped.
    public static func oneLine(_ text: String, limit: Int = 300) -> String {
        let flat = escapingControls(text).replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\t", with: " ")
        let trimmed = String(flat.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        return trimmed.count > limit ? String(trimmed.prefix(limit)) + "…" : trimmed
    }

    /// True for the scalars `escapingControls` replaces (line feed and tab are kept; CR is handled apart).
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    }

    /// JSON text with every scalar `escapingControls` would show escaped written as `\u00XX` instead:
    /// JSONSerialization escapes C0 but writes C1 controls (U+009B, a one-byte CSI) and the bidi
    /// overrides raw. Outside strings JSON is ASCII, so only string contents change.
    public static func escapingControlsInJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { needsEscape($0) && $0.value > 0x1F }) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) && scalar.value > 0x1F {
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
