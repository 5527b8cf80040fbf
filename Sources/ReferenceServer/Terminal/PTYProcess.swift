import CPty
import Foundation
import Synchronization

/// The user's shell on a pseudo-terminal of its own, in their home folder: one per terminal socket.
/// Its output is read on a thread of its own, one chunk at a time (the next read waits until the
/// socket has taken the last chunk, so a flood of output is throttled by the client, not buffered).
/// `terminate` ends the whole process group, whatever the shell started.
final class PTYProcess: Sendable {
    let pid: pid_t
    private let master: Int32
    private let ended = Mutex(false)
    /// The reader closes the master side when it is done (closing it under a blocked read could hand
    /// the number to another file before the read returns); before any reader, `deinit` does.
    private let readerStarted = Mutex(false)

    /// The user's login shell and home folder, from the password database (then `$SHELL`, `/bin/sh`).
    static func userShell() -> (shell: String, home: String, user: String) {
        guard let entry = getpwuid(getuid()) else {
            return (ProcessInfo.processInfo.environment["SHELL"] ?? "/bin/sh", NSHomeDirectory(), "user")
        }
        let shell = String(cString: entry.pointee.pw_shell)
        return (
            FileManager.default.isExecutableFile(atPath: shell) ? shell : "/bin/sh",
            String(cString: entry.pointee.pw_dir), String(cString: entry.pointee.pw_name)
        )
    }

    /// A clean environment for the shell: nothing of the server's own (its key file's path, its
    /// switches) leaks into it, only what a login needs.
    static func environment(home: String, user: String, shell: String) -> [String] {
        let inherited = ProcessInfo.processInfo.environment
        return [
            "HOME=\(home)", "USER=\(user)", "LOGNAME=\(user)", "SHELL=\(shell)",
            "PATH=\(inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")",
            "LANG=\(inherited["LANG"].flatMap { $0.isEmpty ? nil : $0 } ?? "C.UTF-8")",
            "TERM=xterm-256color", "COLORTERM=truecolor",
        ]
    }

    /// `command` (a program and its arguments) instead of the login shell: tests use a shell that reads
    /// no startup files, so they do not depend on this machine's ~/.profile.
    init(rows: Int, cols: Int, command: [String]? = nil) throws {
        let (loginShell, home, user) = Self.userShell()
        let shell = command?.first ?? loginShell
        // argv[0] "-bash": a login shell, as a terminal window starts it.
        let arguments = command ?? ["-" + (loginShell as NSString).lastPathComponent]
        let environment = Self.environment(home: home, user: user, shell: shell)
        var master: Int32 = -1
        let pid = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                bos_pty_spawn(shell, argv, envp, home, UInt16(clamping: rows), UInt16(clamping: cols), &master)
            }
        }
        guard pid > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        (self.pid, self.master) = (pid, master)
    }

    /// Reads output until the shell's side closes; `deliver` must return once the chunk is sent on.
    func readOutput(_ deliver: @escaping @Sendable ([UInt8]) async -> Void) async {
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(1))
        let taken = DispatchSemaphore(value: 0)
        let master = self.master
        readerStarted.withLock { $0 = true }
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }  // EIO: every process on the terminal has gone
                continuation.yield(Array(buffer[0..<count]))
                taken.wait()
            }
            close(master)
            continuation.finish()
        }
        for await chunk in chunks {
            await deliver(chunk)
            taken.signal()
        }
    }

    /// Keystrokes and pastes, as they came.
    func write(_ bytes: [UInt8]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            rest = rest.dropFirst(written)
        }
    }

    func resize(rows: Int, cols: Int) {
        _ = bos_pty_resize(master, UInt16(clamping: rows), UInt16(clamping: cols))
    }

    /// Ends everything the terminal started: SIGHUP first, as a closed terminal does, then SIGKILL to
    /// every process of the shell's session (jobs run in process groups of their own), and reaps the shell.
    /// Safe to call twice.
    func terminate() {
        guard
            ended.withLock({ done in
                defer { done = true }; return !done
            })
        else { return }
        let members = Self.sessionMembers(pid)
        for member in members { kill(member, SIGHUP); kill(member, SIGCONT) }
        for _ in 0..<20 {
            if Self.sessionMembers(pid).isEmpty { break }
            usleep(25_000)
            _ = waitpid(pid, nil, WNOHANG)
        }
        for member in Self.sessionMembers(pid) { kill(member, SIGKILL) }
        for _ in 0..<40 where waitpid(pid, nil, WNOHANG) == 0 { usleep(25_000) }
    }

    /// Every live process whose session is `session` (field 6 of /proc/PID/stat).
    static func sessionMembers(_ session: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let handle = FileHandle(forReadingAtPath: "/proc/\(entry)/stat"),
                let data = try? handle.readToEnd()
            else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            // "pid (comm) state ppid pgrp session …": comm may hold spaces and parentheses.
            guard let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 4, fields[0] != "Z", pid_t(fields[3]) == session else { return nil }
            return pid
        }
    }

    deinit {
        terminate()
        if !readerStarted.withLock({ $0 }) { close(master) }
    }
}

/// Runs `body` with `strings` as a NULL-terminated C array.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
