import BuilderOSKit
import Foundation

/// Unbuffered terminal output (replies stream chunk by chunk) and the hidden key prompt. Everything the
/// CLI writes passes here, and text from a server can hold escape sequences that act on the terminal
/// (write the clipboard, retitle the window, clear the screen, rewrite earlier lines): control characters
/// are shown as visible escapes (`\u{1B}`), unless `--raw` asked for the bytes as sent, which is only
/// allowed when standard output is not a terminal.
enum Terminal {
    /// Set from `--raw` (see `OutputOptions`): standard output gets the server's text unchanged.
    nonisolated(unsafe) static var rawOutput = false

    static func out(_ text: String) { write(rawOutput ? text : VisibleText.escapingControls(text), to: STDOUT_FILENO) }
    static func line(_ text: String) { out(text + "\n") }
    /// JSON for `--json`: C1 controls and bidi overrides escaped as `\u00XX` (JSONSerialization leaves them raw).
    static func json(_ data: Data) { line(VisibleText.escapingControlsInJSON(String(decoding: data, as: UTF8.self))) }
    /// Standard error is always escaped: it is where a terminal is, even when the output is piped.
    static func error(_ text: String) { write(VisibleText.escapingControls(text) + "\n", to: STDERR_FILENO) }
    /// The CLI's own words around a terminal session (line endings as given: the terminal may be raw).
    static func message(_ text: String) { write(text, to: STDERR_FILENO) }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// A line whose `emphasised` parts are bold on a terminal (unless NO_COLOR is set) and plain elsewhere;
    /// every part is escaped as `out` escapes.
    static func line(_ parts: [(text: String, emphasised: Bool)]) {
        let bold = stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let text = parts.map { part in
            let shown = rawOutput ? part.text : VisibleText.escapingControls(part.text)
            return bold && part.emphasised ? "\u{1B}[1m" + shown + "\u{1B}[22m" : shown
        }.joined()
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes everything, or ends quietly when the reader has gone (`builderos status | head -1`): the Swift runtime
    /// ignores SIGPIPE, and Foundation's FileHandle would crash on the EPIPE instead.
    private static func write(_ text: String, to descriptor: Int32) {
        var rest = Array(text.utf8)[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                return
            }
            rest = rest.dropFirst(written)
        }
    }

    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads the API key: from a no-echo prompt on the terminal, or all of standard input when
    /// it is a pipe or file, validated by `APIKey` (bytes that are not UTF-8 arrive as U+FFFD and are refused).
    static func readKey(prompt: String) throws(APIKeyProblem) -> String {
        try APIKey.validated(readKeyText(prompt: prompt))
    }

    private static func readKeyText(prompt: String) -> String {
        if stdinIsTerminal {
            write(prompt, to: STDERR_FILENO)
            var original = termios()
            tcgetattr(STDIN_FILENO, &original)
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
            defer {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
                write("\n", to: STDERR_FILENO)
            }
            return readLine(strippingNewline: true) ?? ""
        }
        // At most a little more than the longest key: a key file, not a stream without end.
        let data = FileHandle.standardInput.readData(ofLength: APIKey.maximumLength * 4 + 16)
        return String(decoding: data, as: UTF8.self)
    }

    /// Asks a yes/no question on the terminal; false when there is no terminal to ask.
    static func confirm(_ question: String) -> Bool {
        guard stdinIsTerminal else { return false }
        write(question + " [y/N] ", to: STDERR_FILENO)
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}
