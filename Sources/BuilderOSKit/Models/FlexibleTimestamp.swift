import Foundation

/// A server timestamp. Real servers write ISO 8601 local time without offset and with
/// microseconds (`2025-10-30T18:07:42.115615`); some add `Z` or an offset. Decoding never fails:
/// an unreadable value keeps its text and has no date.
public struct FlexibleTimestamp: Codable, Sendable, Equatable {
    public let text: String
    public let date: Date?

    public init(text: String) {
        self.text = text
        self.date = Self.parse(text)
    }

    init(text: String, date: Date?) {
        self.text = text
        self.date = date
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            self.init(text: string)
        } else if let seconds = try? container.decode(Double.self) {
            self.init(text: String(seconds), date: Date(timeIntervalSince1970: seconds))
        } else {
            self.init(text: "")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]`; without offset the time is local.
    static func parse(_ text: String) -> Date? {
        let s = text.trimmingCharacters(in: .whitespaces)
        let scalars = Array(s.utf8)
        guard scalars.count >= 19 else { return nil }
        func number(_ from: Int, _ length: Int) -> Int? {
            guard from + length <= scalars.count else { return nil }
            var value = 0
            for c in scalars[from..<from + length] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            scalars[4] == 45, scalars[7] == 45, scalars[10] == 84 || scalars[10] == 32,
            scalars[13] == 58, scalars[16] == 58
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < scalars.count, scalars[index] == 46 {
            index += 1
            var scale = 0.1
            while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                fraction += Double(scalars[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset: Int? = nil
        if index < scalars.count {
            switch scalars[index] {
            case 90, 122: offset = 0  // Z
            case 43, 45:  // + -
                guard let h = number(index + 1, 2) else { return nil }
                let mIndex = index + 3 < scalars.count && scalars[index + 3] == 58 ? index + 4 : index + 3
                let m = number(mIndex, 2) ?? 0
                offset = (h * 3600 + m * 60) * (scalars[index] == 43 ? 1 : -1)
            default: return nil
            }
        }
        guard
            let base = LocalTime.date(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                offset: offset)
        else { return nil }
        return base.addingTimeInterval(fraction)
    }
}
