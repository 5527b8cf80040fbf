import Foundation

/// The local terminal in raw mode (every key goes to the remote shell as typed, nothing echoed here),
/// put back as it was on every way out: a normal return, an error thrown, or a signal that ends the
/// process (SIGTERM, SIGHUP, SIGINT, SIGQUIT).
final class RawMode: @unchecked Sendable {
    nonisolated(unsafe) private static var saved: termios?

    static func enter() -> RawMode {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return RawMode() }
        saved = original
        var raw = original
        cfmakeraw(&raw)
        // TCSANOW, not TCSAFLUSH: keys typed while the session was connecting are still in the line
        // discipline's buffer and must reach the shell, not be thrown away.
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            signal(sig) { received in
                RawMode.restoreSaved()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
        atexit { RawMode.restoreSaved() }
        return RawMode()
    }

    /// Safe to call more than once (and from a signal handler: tcsetattr is async-signal-safe).
    func restore() { Self.restoreSaved() }

    private static func restoreSaved() {
        guard var original = saved else { return }
        // TCSADRAIN: the shell's last output is written first; keys typed meanwhile stay for whatever reads next.
        tcsetattr(STDIN_FILENO, TCSADRAIN, &original)
    }

    static func windowSize() -> TerminalSizeCells {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return (24, 80) }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    typealias TerminalSizeCells = (rows: Int, cols: Int)

    /// The remote PTY's bytes go to the local terminal unchanged: it is a terminal session.
    static func write(_ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 { if errno == EINTR { continue }; return }
                offset += written
            }
        }
    }
}
