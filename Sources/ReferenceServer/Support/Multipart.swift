import Foundation

/// A minimal multipart/form-data reader: enough for the upload route's `file` and `type` parts.
struct MultipartPart {
    var name: String
    var filename: String?
    var contentType: String?
    var body: Data
}

enum Multipart {
    static func boundary(fromContentType value: String) -> String? {
        for piece in value.split(separator: ";") {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            if trimmed.lowercased().hasPrefix("boundary=") {
                return String(trimmed.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    static func parse(_ body: Data, boundary: String) -> [MultipartPart] {
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var parts: [MultipartPart] = []
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else { return [] }
        cursor = first.upperBound
        while true {
            // After a delimiter: "--" ends the body, "\r\n" starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { break }
            let headersStart = cursor + 2
            guard let hEnd = body.range(of: headerEnd, in: headersStart..<body.endIndex),
                let next = body.range(of: Data("\r\n".utf8) + delimiter, in: hEnd.upperBound..<body.endIndex)
            else { break }
            let headerText = String(decoding: body[headersStart..<hEnd.lowerBound], as: UTF8.self)
            var part = MultipartPart(name: "", filename: nil, contentType: nil, body: Data(body[hEnd.upperBound..<next.lowerBound]))
            for line in headerText.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = attribute("name", in: line) ?? ""
                    part.filename = attribute("filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = String(line.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces)
                }
            }
            parts.append(part)
            cursor = next.upperBound
        }
        return parts
    }

    private static func attribute(_ key: String, in line: String) -> String? {
        guard let r = line.range(of: "\(key)=\"") else { return nil }
        // `name=` must not match inside `filename=`.
        if key == "name", r.lowerBound > line.startIndex,
            line[line.index(before: r.lowerBound)] != " " && line[line.index(before: r.lowerBound)] != ";"
        {
            guard let again = line.range(of: "; \(key)=\"") else { return nil }
            let rest = line[again.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        let rest = line[r.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
