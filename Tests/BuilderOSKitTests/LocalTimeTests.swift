import Foundation
import Testing

@testable import BuilderOSKit

/// Wall-clock time without ICU: calendar arithmetic, the local zone through the C library, and the
/// locale's time format without seconds.
struct LocalTimeTests {
    @Test func aDateAtAnOffsetIsPlainArithmetic() throws {
        let utc = try #require(LocalTime.date(year: 2025, month: 10, day: 30, hour: 18, minute: 7, second: 42, offset: 0))
        #expect(utc.timeIntervalSince1970 == 1_761_847_662)
        #expect(LocalTime.date(year: 2025, month: 10, day: 30, hour: 20, minute: 7, second: 42, offset: 7_200) == utc)
        #expect(LocalTime.date(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, offset: 0)?.timeIntervalSince1970 == 0)
        #expect(LocalTime.date(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, offset: 0)?.timeIntervalSince1970 == -1)
        #expect(LocalTime.date(year: 2000, month: 3, day: 1, hour: 0, minute: 0, second: 0, offset: 0)?.timeIntervalSince1970 == 951_868_800)
    }

    @Test(arguments: [(2025, 2, 29), (1900, 2, 29), (2025, 13, 1), (2025, 0, 10), (2025, 4, 31), (2025, 1, 0)])
    func datesThatDoNotExistAreNil(year: Int, month: Int, day: Int) {
        #expect(LocalTime.date(year: year, month: month, day: day, hour: 12, minute: 0, second: 0, offset: 0) == nil)
        #expect(LocalTime.date(year: year, month: month, day: day, hour: 12, minute: 0, second: 0) == nil)
    }

    @Test func leapDaysAndImpossibleTimes() {
        #expect(LocalTime.date(year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0, offset: 0) != nil)
        #expect(LocalTime.date(year: 2000, month: 2, day: 29, hour: 0, minute: 0, second: 0, offset: 0) != nil)
        #expect(LocalTime.date(year: 2025, month: 5, day: 1, hour: 24, minute: 0, second: 0, offset: 0) == nil)
        #expect(LocalTime.date(year: 2025, month: 5, day: 1, hour: 10, minute: 60, second: 0, offset: 0) == nil)
    }

    @Test func aLocalTimeIsTheSameInstantAsThatTimeAtTheZonesOffset() throws {
        let local = try #require(LocalTime.date(year: 2025, month: 10, day: 30, hour: 18, minute: 7, second: 42))
        var seconds = time_t(local.timeIntervalSince1970)
        var fields = tm()
        localtime_r(&seconds, &fields)
        #expect((fields.tm_hour, fields.tm_min, fields.tm_sec) == (18, 7, 42))
        #expect(LocalTime.date(year: 2025, month: 10, day: 30, hour: 18, minute: 7, second: 42, offset: fields.tm_gmtoff) == local)
    }

    @Test func theStartOfADayIsItsLocalMidnight() {
        let now = Date(timeIntervalSince1970: 1_761_847_662.5)
        let start = LocalTime.startOfDay(for: now)
        #expect(start <= now && now.timeIntervalSince(start) < 90_000)
        var seconds = time_t(start.timeIntervalSince1970)
        var fields = tm()
        localtime_r(&seconds, &fields)
        #expect((fields.tm_hour, fields.tm_min, fields.tm_sec) == (0, 0, 0))
        #expect(LocalTime.startOfDay(for: start) == start)
    }

    @Test(arguments: [
        ("%H:%M:%S", "%I:%M:%S %p", "%H:%M"),
        ("%T", "", "%H:%M"),
        ("%r", "%I:%M:%S %p", "%-I:%M %p"),
        ("%r", "", "%-I:%M %p"),
        ("%H.%M.%S", "", "%H.%M"),
        ("", "", "%H:%M"),
    ])
    func theLocalesTimeFormatLosesItsSeconds(format: String, twelveHour: String, expected: String) {
        #expect(LocalTime.withoutSeconds(format, twelveHour: twelveHour) == expected)
    }

    @Test func aShortTimeHasHoursAndMinutesOnly() {
        // The test process keeps the C locale: T_FMT is "%H:%M:%S".
        let date = try! #require(LocalTime.date(year: 2025, month: 10, day: 30, hour: 18, minute: 7, second: 42))
        #expect(LocalTime.shortTime(date) == "18:07")
    }
}
