import Foundation
import ProcessHarness
import Testing

/// The harness's children start as a shell would start them: no signal blocked, none ignored.
/// Swift's concurrency threads block most signals, and a child inherits its spawner's mask: a
/// session bus started under it ignored the SIGTERM that `dbus-run-session` ends it with, and
/// outlived every test run.
struct SpawnTests {
    @Test func childrenStartWithNoSignalBlockedOrIgnored() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (input, output, errors) = (
            folder.appendingPathComponent("in"), folder.appendingPathComponent("out"), folder.appendingPathComponent("err")
        )
        try Data().write(to: input)
        let status = try await Spawn.run(
            "/bin/grep", ["-E", "^Sig(Blk|Ign):", "/proc/self/status"], environment: [:],
            stdin: input.path, stdout: output.path, stderr: errors.path)
        #expect(status == 0)
        // "SigBlk:\t<hex mask>", "SigIgn:\t<hex mask>"; bit n-1 stands for signal n.
        let masks = Dictionary(
            uniqueKeysWithValues: try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { line in
                let parts = line.split(separator: "\t")
                return (String(parts[0]), UInt64(parts.last ?? "", radix: 16) ?? .max)
            })
        #expect(masks["SigBlk:"] == 0)
        // The standard signals (1-31); glibc's posix_spawn keeps its two internal ones (32, 33) ignored.
        #expect(masks["SigIgn:"].map { $0 & 0x7fff_ffff } == 0)
    }
}
