import Foundation

/// Wall-clock time through the C library — the system's time zone database and the locale's
/// LC_TIME — instead of Foundation's `Calendar`, `TimeZone.current` and `DateFormatter`. Those load
/// ICU (its time zone, calendar and locale data) the first time they are used: measured in a static
/// binary, +1.7 MiB resident and 0.7 ms for `TimeZone.current`, +6.8 MiB and 1.1 ms for a time
/// formatter, which the app paid before its first frame (a timestamp in the first status reply, the
/// time under each message). Nothing else the app does at start needs ICU.
public enum LocalTime {
    /// The instant of a calendar date and time: at `offset` seconds east of UTC, or in the local
    /// time zone when `offset` is nil. Nil for a date or time that does not exist on a clock
    /// (month 13, February 30, 25:00); a local time skipped by a daylight-saving change is read
    /// as the C library's `mktime` reads it.
    public static func date(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        offset: Int? = nil
    ) -> Date? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        if let offset {
            let days = daysFromCivil(year: year, month: month, day: day)
            return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offset))
        }
        var fields = tm()
        (fields.tm_year, fields.tm_mon, fields.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (fields.tm_hour, fields.tm_min, fields.tm_sec, fields.tm_isdst) = (Int32(hour), Int32(minute), Int32(second), -1)
        let seconds = mktime(&fields)
        return seconds == -1 && fields.tm_year != 69 ? nil : Date(timeIntervalSince1970: Double(seconds))
    }

    /// Midnight at the start of `date`'s local day.
    public static func startOfDay(for date: Date) -> Date {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        localtime_r(&seconds, &fields)
        (fields.tm_hour, fields.tm_min, fields.tm_sec, fields.tm_isdst) = (0, 0, 0, -1)
        return Date(timeIntervalSince1970: Double(mktime(&fields)))
    }

    /// The time of day in the locale's own format (LC_TIME) without its seconds: "18:07" for
    /// German or the C locale, "6:07 PM" for American English.
    public static func shortTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        localtime_r(&seconds, &fields)
        var buffer = [CChar](repeating: 0, count: 64)
        let written = strftime(&buffer, buffer.count, shortTimeFormat, &fields)
        return written > 0 ? String(decoding: buffer[..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    /// The date in the locale's own short format (LC_TIME's `%x`): "14.11.2023" for German, "11/14/23" for
    /// American English or the C locale.
    public static func shortDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        localtime_r(&seconds, &fields)
        var buffer = [CChar](repeating: 0, count: 64)
        let written = strftime(&buffer, buffer.count, "%x", &fields)
        return written > 0 ? String(decoding: buffer[..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    /// The locale's time format (`T_FMT`, with `%r`/`%T` spelled out) less its seconds, and hours
    /// of a 12-hour clock without a leading zero, as clocks write them.
    static let shortTimeFormat: String = withoutSeconds(
        String(cString: nl_langinfo(nl_item(T_FMT))), twelveHour: String(cString: nl_langinfo(nl_item(T_FMT_AMPM))))

    static func withoutSeconds(_ format: String, twelveHour: String) -> String {
        var f = format.isEmpty ? "%H:%M:%S" : format
        f = replacing("%T", with: "%H:%M:%S", in: f)
        f = replacing("%r", with: twelveHour.isEmpty ? "%I:%M:%S %p" : twelveHour, in: f)
        for separator in [":", ".", ""] { f = replacing(separator + "%S", with: "", in: f) }
        return replacing("%I", with: "%-I", in: f)
    }

    /// `replacingOccurrences(of:with:)` without NSString, whose first use in the first frame was
    /// here (the first message row's time).
    private static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let found = rest.range(of: target) {
            result += String(rest[..<found.lowerBound]) + replacement
            rest = rest[found.upperBound...]
        }
        return result + String(rest)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
