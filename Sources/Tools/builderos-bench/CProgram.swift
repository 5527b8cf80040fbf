import Foundation

/// The benchmark's C references, compiled by the harness itself against the system's GTK.
enum CProgram {
    /// Compiles `source` into `directory` as `name`; returns the binary's path.
    static func build(_ source: String, named name: String, in directory: URL) throws -> String {
        let c = directory.appendingPathComponent("\(name).c")
        try source.write(to: c, atomically: true, encoding: .utf8)
        let binary = directory.appendingPathComponent(name).path
        let flags = Processes.output("/usr/bin/pkg-config", ["--cflags", "--libs", "gtk4"], environment: ProcessInfo.processInfo.environment)
        let result = Processes.run(
            "/bin/sh", ["-c", "cc -O2 -o '\(binary)' '\(c.path)' \(flags.trimmingCharacters(in: .whitespacesAndNewlines)) -lm"],
            environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else { throw POSIXError(.ENOEXEC) }
        return binary
    }
}
