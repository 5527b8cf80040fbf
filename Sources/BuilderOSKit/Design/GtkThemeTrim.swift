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
    /// Comments go. It runs on the main thread as the app starts, so it works on bytes.
    public static func css(_ css: String, baseURL: String, without absent: Set<String> = absentWidgets) -> String {
        let source = withoutComments(Array(css.utf8))
        let base = Array((baseURL.hasSuffix("/") ? baseURL : baseURL + "/").utf8)
        let absentNames = absent.map { Array($0.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        for statement in statementRanges(of: source) {
            let text = source[statement]
            guard text.first != UInt8(ascii: "@"), let open = text.firstIndex(of: UInt8(ascii: "{")) else {
                append(text, to: &out)
                continue
            }
            var first = true
            for selector in selectorRanges(of: source, statement.lowerBound..<open) where !namesAny(of: absentNames, source[selector]) {
                if !first { out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                out += source[selector]
                first = false
            }
            guard !first else { continue }
            out.append(UInt8(ascii: " "))
            appendAbsolutizingURLs(source[open..<statement.upperBound], base: base, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The top-level statements, whitespace around them left out: rules, and at-rules with or
    /// without a block (`@keyframes` holds blocks of its own).
    static func statements(of css: String) -> [String] {
        let bytes = Array(css.utf8)
        return statementRanges(of: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    private static func statementRanges(of bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var depth = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { addTrimmed(start..<index + 1, of: bytes, to: &ranges); start = index + 1 }
            case UInt8(ascii: ";") where depth == 0: addTrimmed(start..<index + 1, of: bytes, to: &ranges); start = index + 1
            default: break
            }
        }
        addTrimmed(start..<bytes.count, of: bytes, to: &ranges)
        return ranges
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func addTrimmed(_ range: Range<Int>, of bytes: [UInt8], to ranges: inout [Range<Int>]) {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        if lower < upper { ranges.append(lower..<upper) }
    }

    private static func append(_ text: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out += text
        out.append(UInt8(ascii: "\n"))
    }

    private static func withoutComments(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i += 2
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }

    /// A selector list split at its top-level commas (`:not(a, b)` stays whole).
    static func selectors(of list: String) -> [String] {
        let bytes = Array(list.utf8)
        return selectorRanges(of: bytes, 0..<bytes.count).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    private static func selectorRanges(of bytes: [UInt8], _ list: Range<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = list.lowerBound
        var depth = 0
        for index in list {
            switch bytes[index] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            case UInt8(ascii: ",") where depth == 0: addTrimmed(start..<index, of: bytes, to: &ranges); start = index + 1
            default: break
            }
        }
        addTrimmed(start..<list.upperBound, of: bytes, to: &ranges)
        return ranges
    }

    /// The element names a selector requires: a name that starts a compound selector (after the
    /// start, a space or a combinator), outside parentheses.
    static func elements(in selector: String) -> Set<String> {
        var names: Set<String> = []
        forEachElementName(ArraySlice(selector.utf8)) { names.insert(String(decoding: $0, as: UTF8.self)) }
        return names
    }

    /// Whether the selector requires one of `names` (compared as bytes: no string is made).
    private static func namesAny(of names: [[UInt8]], _ selector: ArraySlice<UInt8>) -> Bool {
        var found = false
        forEachElementName(selector) { name in
            if !found { found = names.contains { $0.count == name.count && $0.elementsEqual(name) } }
        }
        return found
    }

    private static func forEachElementName(_ selector: ArraySlice<UInt8>, _ body: (ArraySlice<UInt8>) -> Void) {
        var nameStart: Int?
        var depth = 0
        var atCompoundStart = true
        for index in selector.indices {
            let byte = selector[index]
            let isNameByte =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if depth == 0, isNameByte, nameStart != nil || atCompoundStart {
                if nameStart == nil { nameStart = index }
                atCompoundStart = false
                continue
            }
            if let start = nameStart { body(selector[start..<index]) }
            nameStart = nil
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") { depth -= 1 }
            atCompoundStart =
                depth == 0 && (isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "~"))
        }
        if let start = nameStart { body(selector[start..<selector.endIndex]) }
    }

    /// `url("assets/x.png")` → `url("BASE/assets/x.png")`; URLs with a scheme stay as they are.
    private static func appendAbsolutizingURLs(_ block: ArraySlice<UInt8>, base: [UInt8], to out: inout [UInt8]) {
        let url = Array("url(".utf8)
        var index = block.startIndex
        while index < block.endIndex {
            out.append(block[index])
            guard block[index] == UInt8(ascii: "("), index - block.startIndex >= 3, block[(index - 3)...index].elementsEqual(url) else {
                index += 1
                continue
            }
            index += 1
            if index < block.endIndex, block[index] == UInt8(ascii: "\"") || block[index] == UInt8(ascii: "'") {
                out.append(block[index])
                index += 1
            }
            let rest = block[index...]
            let absolute = ["resource:", "file:", "data:", "/"].contains { rest.starts(with: $0.utf8) }
            if !absolute { out += base }
        }
    }
}
