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
}
