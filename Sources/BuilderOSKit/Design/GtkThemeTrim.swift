import Foundation

/// GTK's own theme (Adwaita, GTK's "Default") without the rules for widgets the app never makes.
///
/// Why: GTK parses its whole theme (140 KB of CSS) at every start, twice in a dark session, and the
/// parse takes time in proportion to its size. Over a third of it styles widgets no window of ours
/// has (spin buttons, scales, colour and font choosers, calendars…): without it the app looks the
/// same and starts sooner. The app loads the result in place of GTK's theme (`GtkKit/GtkTheme`);
/// rule 44 of docs/performance.md has the figures.
public enum GtkThemeTrim {
    /// GTK's CSS names of the widgets no window of the app has, nor GTK's own windows it opens
    /// (file chooser, about dialog, shortcuts window, emoji chooser, context menus): rules
    /// only these could match are left out. `desktop-ui-checks` walks every window to prove none
    /// of them is made.
    public static let absentWidgets: Set<String> = [
        "appchooserbutton", "calendar", "colorbutton", "colorchooser", "colorswatch", "columnview", "combobox", "cover",
        "coverflow", "editablelabel", "expander-widget", "filechooserbutton", "fontbutton", "gridview", "iconview",
        "infobar", "levelbar", "marks", "menubar", "paper", "plane", "scale", "scalebutton", "spinbutton", "stacksidebar",
        "statusbar", "video",
    ]

    /// `css` without the rules and selectors that name one of `absent` (as an element anywhere
    /// but inside a pseudo-class's parentheses). Relative `url()`s become absolute under
    /// `baseURL` (the theme's folder): the result is loaded from a string, which has no folder.
    /// Comments go. It runs on the main thread as the app starts: one pass over the bytes, copied
    /// in runs.
    public static func css(_ css: String, baseURL: String, without absent: Set<String> = absentWidgets) -> String {
        var css = css
        let source = css.withUTF8 { withoutComments($0) }
        let trim = Trim(base: Array((baseURL.hasSuffix("/") ? baseURL : baseURL + "/").utf8), absent: absent.map { Array($0.utf8) })
        return String(decoding: source.withUnsafeBufferPointer { trim.run($0) }, as: UTF8.self)
    }

    /// The top-level statements, whitespace around them left out: rules, and at-rules with or
    /// without a block (`@keyframes` holds blocks of its own).
    static func statements(of css: String) -> [String] {
        var css = css
        return css.withUTF8 { bytes in
            var statements: [String] = []
            forEachStatement(bytes) { lower, upper, _ in
                statements.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self))
            }
            return statements
        }
    }

    /// A selector list split at its top-level commas (`:not(a, b)` stays whole).
    static func selectors(of list: String) -> [String] {
        var list = list
        return list.withUTF8 { bytes in
            var selectors: [String] = []
            forEachSelector(bytes, 0, bytes.count) { lower, upper in
                selectors.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self))
            }
            return selectors
        }
    }

    /// The element names a selector requires: a name that starts a compound selector (after the
    /// start, a space or a combinator), outside parentheses.
    static func elements(in selector: String) -> Set<String> {
        var selector = selector
        return selector.withUTF8 { bytes in
            var names: Set<String> = []
            _ = firstElementName(bytes, 0, bytes.count) { lower, upper in
                names.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self))
                return false
            }
            return names
        }
    }

    /// What `css(_:baseURL:without:)` does to each statement.
    private struct Trim {
        let base: [UInt8]
        let absent: [[UInt8]]

        func run(_ source: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(source.count + 4096)
            forEachStatement(source) { lower, upper, open in
                guard source[lower] != UInt8(ascii: "@"), let open else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: source[lower..<upper]))
                    out.append(UInt8(ascii: "\n"))
                    return
                }
                var first = true
                forEachSelector(source, lower, open) { lower, upper in
                    guard !firstElementName(source, lower, upper, where: isAbsent(source)) else { return }
                    if !first { out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: source[lower..<upper]))
                    first = false
                }
                guard !first else { return }
                out.append(UInt8(ascii: " "))
                appendAbsolutizingURLs(source, open, upper, to: &out)
                out.append(UInt8(ascii: "\n"))
            }
            return out
        }

        private func isAbsent(_ source: UnsafeBufferPointer<UInt8>) -> (Int, Int) -> Bool {
            { lower, upper in
                absent.contains { name in
                    name.count == upper - lower
                        && name.withUnsafeBufferPointer { memcmp($0.baseAddress!, source.baseAddress! + lower, upper - lower) == 0 }
                }
            }
        }

        /// `url("assets/x.png")` → `url("BASE/assets/x.png")`; URLs with a scheme stay as they are.
        private func appendAbsolutizingURLs(_ source: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int, to out: inout [UInt8]) {
            var copied = lower
            for index in (lower + 3)..<max(upper, lower + 3) where source[index] == UInt8(ascii: "(") {
                guard source[index - 3] == UInt8(ascii: "u"), source[index - 2] == UInt8(ascii: "r"), source[index - 1] == UInt8(ascii: "l") else {
                    continue
                }
                var at = index + 1
                if at < upper, source[at] == UInt8(ascii: "\"") || source[at] == UInt8(ascii: "'") { at += 1 }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<at]))
                copied = at
                let rest = UnsafeBufferPointer(rebasing: source[at..<upper])
                if !["resource:", "file:", "data:", "/"].contains(where: { rest.starts(with: $0.utf8) }) { out += base }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<upper]))
        }
    }

    /// Calls `body` with each top-level statement's bounds, whitespace left out, and the place of
    /// its first `{` (nil: a statement without a block).
    private static func forEachStatement(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Int?) -> Void) {
        var start = 0
        var depth = 0
        var open: Int?
        func end(_ upper: Int) {
            let (lower, upper) = trimmed(bytes, start, upper)
            if lower < upper { body(lower, upper, open) }
            open = nil
        }
        for index in 0..<bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                if depth == 0, open == nil { open = index }
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { end(index + 1); start = index + 1 }
            case UInt8(ascii: ";") where depth == 0: end(index + 1); start = index + 1
            default: break
            }
        }
        end(bytes.count)
    }

    /// Calls `body` with the bounds of each selector in `lower..<upper`, split at top-level commas.
    private static func forEachSelector(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int, _ body: (Int, Int) -> Void) {
        var start = lower
        var depth = 0
        func end(_ upper: Int) {
            let (a, b) = trimmed(bytes, start, upper)
            if a < b { body(a, b) }
        }
        for index in lower..<upper {
            switch bytes[index] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            case UInt8(ascii: ",") where depth == 0: end(index); start = index + 1
            default: break
            }
        }
        end(upper)
    }

    /// Whether `matches` holds for an element name the selector in `lower..<upper` requires.
    private static func firstElementName(
        _ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int, where matches: (Int, Int) -> Bool
    ) -> Bool {
        var nameStart: Int?
        var depth = 0
        var atCompoundStart = true
        for index in lower..<upper {
            let byte = bytes[index]
            if depth == 0, isNameByte(byte), nameStart != nil || atCompoundStart {
                if nameStart == nil { nameStart = index }
                atCompoundStart = false
                continue
            }
            if let start = nameStart, matches(start, index) { return true }
            nameStart = nil
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") { depth -= 1 }
            atCompoundStart =
                depth == 0 && (isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "~"))
        }
        return nameStart.map { matches($0, upper) } ?? false
    }

    private static func withoutComments(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "*") else {
                index += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            index += 2
            while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
            index = min(index + 2, bytes.count)
            copied = index
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
        return out
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> (Int, Int) {
        var lower = lower
        var upper = upper
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return (lower, upper)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
