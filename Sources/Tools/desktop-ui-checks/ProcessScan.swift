import Foundation

/// The secret-leak check on running processes: every process's command line and environment
/// (as far as this user may read them) searched for the key.
enum ProcessScan {
    static func processesMentioning(_ needle: String) -> [String] {
        guard !needle.isEmpty, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let bytes = Data(needle.utf8)
        var hits: [String] = []
        for pid in entries where pid.allSatisfy(\.isNumber) {
            for file in ["cmdline", "environ"] {
                if let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(file)"), data.range(of: bytes) != nil {
                    hits.append("\(pid)/\(file)")
                }
            }
        }
        return hits
    }

    /// A file of /proc read to its end (procfs reports size 0, so reading by size gets nothing).
    static func procText(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether a library whose file name contains `name` is mapped into this process.
    static func mapsLibrary(_ name: String) -> Bool { procText("/proc/self/maps").contains(name) }
}
