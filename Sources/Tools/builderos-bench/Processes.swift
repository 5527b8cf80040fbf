import Foundation

/// Child processes for the benchmarks: wall time and peak memory (wait4's rusage), and the
/// reference server as a long-running child.
enum Processes {
    struct Result {
        var status: Int32
        var seconds: Double
        /// Peak resident set size in KiB.
        var peakKiB: Int
        /// When the process was spawned (CLOCK_MONOTONIC, nanoseconds): the clock the app and the
        /// reference window write their first frame's time in.
        var spawnedNanoseconds: Int = 0
    }

    static func run(_ path: String, _ arguments: [String], environment: [String: String], stdin: String? = nil) -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = monotonicNanoseconds()
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return Result(status: -1, seconds: 0, peakKiB: 0) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(monotonicNanoseconds() - spawned) / 1e9
        return Result(status: (status >> 8) & 0xff, seconds: seconds, peakKiB: usage.ru_maxrss, spawnedNanoseconds: spawned)
    }

    /// CLOCK_MONOTONIC in nanoseconds: the clock the app and the reference window write their first frame's time in.
    private static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
    }

    /// A process that keeps one core busy until terminated (a shell loop: no system call, the
    /// scheduler's ordinary priority).
    static func busyLoop() -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "while :; do :; done"]
        try? process.run()
        return process
    }

    /// Runs a command and returns its standard output (for scenarios that print MEASURE lines).
    static func output(_ path: String, _ arguments: [String], environment: [String: String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try? process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
