import Foundation

/// This process's memory map, `/proc/self/maps`, read to its end: `String(contentsOfFile:)` stops
/// after the first 4 KB of a /proc file (which reports a size of 0), a third of the list here.
enum ProcessMaps {
    static func text() -> String {
        guard let data = try? FileHandle(forReadingAtPath: "/proc/self/maps")?.readToEnd() else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
