import Foundation

/// Unbuffered terminal output (replies stream chunk by chunk) and the hidden key prompt.
enum Terminal {
    static func out(_ text: String) { write(text, to: STDOUT_FILENO) }
    static func line(_ text: String) { out(text + "\n") }
    static func error(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

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
    /// it is a pipe or file. Surrounding white space and the final newline are dropped.
    static func readKey(prompt: String) -> String {
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
            return (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asks a yes/no question on the terminal; false when there is no terminal to ask.
    static func confirm(_ question: String) -> Bool {
        guard stdinIsTerminal else { return false }
        write(question + " [y/N] ", to: STDERR_FILENO)
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}
