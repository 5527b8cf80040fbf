import Foundation

/// The `<title>` of the start of an HTML page, as a person reads it: entities decoded, white space
/// collapsed, control characters dropped, at most 80 characters.
public enum HTMLTitle {
    public static let maximumLength = 80

    public static func extract(from data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        guard let open = text.range(of: "<title", options: .caseInsensitive),
            let openEnd = text.range(of: ">", range: open.upperBound..<text.endIndex),
            let close = text.range(of: "</title", options: .caseInsensitive, range: openEnd.upperBound..<text.endIndex)
        else { return nil }
        let raw = decodeEntities(String(text[openEnd.upperBound..<close.lowerBound]))
        let visible = String(String.UnicodeScalarView(raw.unicodeScalars.filter { !VisibleText.needsEscape($0) || $0 == "\n" || $0 == "\t" }))
        let collapsed = visible.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !collapsed.isEmpty else { return nil }
        return collapsed.count > maximumLength ? String(collapsed.prefix(maximumLength - 1)) + "…" : collapsed
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(10).firstIndex(of: ";") {
                let name = String(after[..<semi])
                var replacement: String?
                if let value = named[name.lowercased()] {
                    replacement = value
                } else if name.hasPrefix("#x") || name.hasPrefix("#X"), let code = UInt32(name.dropFirst(2), radix: 16) {
                    replacement = Unicode.Scalar(code).map { String($0) }
                } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()) {
                    replacement = Unicode.Scalar(code).map { String($0) }
                }
                if let replacement {
                    out += replacement
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
