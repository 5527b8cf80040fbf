import Foundation
import Testing

/// DesktopUI writes no spacing, margin, width, size or duration of its own: each comes from
/// `Style`, `Layout` or `Motion`, which read `data/design-tokens.json`. The test reads the sources.
struct StyleLiteralTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/DesktopUI")

    @Test func desktopUIWritesNoMeasurementOfItsOwn() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 50, "the DesktopUI sources were found")
        var findings: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, statement) in StyleLiterals.statements(of: text) {
                findings += StyleLiterals.findings(in: statement).map { "DesktopUI/\(file):\(number): \($0)" }
            }
        }
        #expect(findings.isEmpty, "take these from Style, Layout or Motion (the design tokens):\n\(findings.joined(separator: "\n"))")
    }

    @Test func aCallWrappedOverLinesIsReadWhole() {
        let statements = StyleLiterals.statements(of: "UI.size(\n    widget,\n    width: 230)\nlet a = b")
        #expect(statements.map(\.0) == [1, 4])
        #expect(!StyleLiterals.findings(in: statements[0].1).isEmpty)
    }

    @Test func theScanFindsLiteralsInEveryKindOfCall() {
        for line in [
            "UI.vbox(spacing: 4, [a])", "gtk_widget_set_size_request(window, 720, 520)", "UI.margins(w, start: Style.gap + 80)",
            "try? await Task.sleep(nanoseconds: 1_500_000_000)", "static let sidebarWidth: Int32 = 240",
            "gtk_label_set_max_width_chars(OpaquePointer(label), 60)", "UI.append(box, UI.hbox(spacing: 6, [a]))",
            "context.session.api(timeout: 10)", "let delay = 0.25",
        ] {
            #expect(!StyleLiterals.findings(in: line).isEmpty, "\(line)")
        }
        for line in [
            "UI.vbox(spacing: Style.gapTiny, [a])", "gtk_window_set_default_size(w, Layout.px(\"detail-width\"), -1)",
            "UI.label(\"width: 40\")", "gtk_scrolled_window_set_propagate_natural_height(s, 1)", "UI.vbox([a, b])",
            "let rows = 48  // width: 12 in a comment", "UI.margins(w, top: 0)", "let width = room.width - 4 * Style.gap",
        ] {
            #expect(StyleLiterals.findings(in: line).isEmpty, "\(line)")
        }
    }
}

/// Finds numbers written in a call or a constant about spacing, size or time. 0 (none), 1 (GTK's
/// TRUE) and -1 (GTK's "unset") are not measurements, and a token scaled (`4 * Style.gap`) is the token.
enum StyleLiterals {
    static let subjects = ["spacing", "margin", "padding", "width", "height", "size", "duration", "timeout", "interval", "delay", "chars", "seconds"]
    static let allowed: Set<String> = ["0", "1", "-1"]

    /// Whether a name is about spacing, size or time (a plain search: Swift's Regex made the scan take seconds).
    static func isSubject(_ name: some StringProtocol) -> Bool {
        let lowered = name.lowercased()
        return subjects.contains { lowered.contains($0) }
    }

    static func findings(in line: String) -> [String] {
        // Most statements hold no digit at all.
        guard line.contains(where: \.isNumber) else { return [] }
        let code = withoutStringsAndComments(line).replacing(/\d+\s*\*\s*(Style|Layout|Motion)\./) { "\($0.1)." }
        var found: [String] = []
        // A constant: `let fooWidth: Int32 = 240`.
        if let match = code.firstMatch(of: /\b(?:let|var)\s+(\w+)\s*(?::\s*\w+)?\s*=\s*(.+)$/),
            isSubject(match.1)
        {
            found += literals(in: String(match.2)).map { "\(match.1) = \($0)" }
        }
        // A call: each argument whose label, or whose function's name, is about size or time.
        for call in code.matches(of: /([A-Za-z_][\w.]*)\s*\(/) {
            let name = String(call.1)
            for argument in arguments(of: code, openingAt: code.index(before: call.range.upperBound)) {
                let parts = argument.split(separator: ":", maxSplits: 1)
                let labelled = parts.count == 2 && parts[0].trimmingCharacters(in: .whitespaces).wholeMatch(of: /\w+/) != nil
                let label = labelled ? String(parts[0]) : ""
                let value = labelled ? String(parts[1]) : argument
                guard isSubject(name) || isSubject(label) else { continue }
                found += literals(in: value).map { _ in "\(name)(\(argument.trimmingCharacters(in: .whitespaces)))" }
            }
        }
        return found
    }

    /// The file's lines with a call that spans several lines joined into one (the formatter wraps
    /// long calls), each with the number of its first line; comments and strings already emptied.
    static func statements(of text: String) -> [(Int, String)] {
        var result: [(Int, String)] = [], current = "", start = 1, depth = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = withoutStringsAndComments(String(line))
            if depth == 0 { start = index + 1 }
            current += (current.isEmpty ? "" : " ") + code
            depth = max(0, depth + code.filter { $0 == "(" }.count - code.filter { $0 == ")" }.count)
            if depth == 0 {
                result.append((start, current))
                current = ""
            }
        }
        if !current.isEmpty { result.append((start, current)) }
        return result
    }

    private static func literals(in text: String) -> [String] {
        text.matches(of: /(?:^|[^\w.])(-?\d[\d_]*(?:\.\d+)?)(?![\w.])/).map { String($0.1) }.filter { !allowed.contains($0) }
    }

    /// The top-level arguments of the call whose `(` is at `open`, up to the line's end.
    private static func arguments(of code: String, openingAt open: String.Index) -> [String] {
        var depth = 0, current = "", result: [String] = []
        for character in code[code.index(after: open)...] {
            switch character {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                if depth == 0 { return result + [current] }
                depth -= 1
            case "," where depth == 0:
                result.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        return result + [current]
    }

    static func withoutStringsAndComments(_ line: String) -> String {
        var out = "", inString = false, escaped = false, previous: Character = " "
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false; out.append("\"")
                }
            } else if character == "\"" {
                inString = true
                out.append("\"")
            } else if character == "/" && previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(character)
            }
            previous = character
        }
        return out
    }
}
