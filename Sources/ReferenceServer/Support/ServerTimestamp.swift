import Foundation

/// Timestamps the way real BuilderOS servers write them: ISO 8601, local time, microseconds,
/// and no offset (e.g. `2025-10-30T18:07:42.115615`).
enum ServerTimestamp {
    static func now() -> String {
        var tv = timeval()
        gettimeofday(&tv, nil)
        var seconds = tv.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06d",
            parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, Int32(tv.tv_usec))
    }
}
