import Foundation

/// Unbuffered terminal output (replies stream chunk by chunk) and the hidden key prompt.
enum Terminal {
    static func out(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    static func line(_ text: String) { out(text + "\n") }
    static func error(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads the API key: from a no-echo prompt on the terminal, or all of standard input when
    /// it is a pipe or file. Surrounding white space and the final newline are dropped.
    static func readKey(prompt: String) -> String {
        if stdinIsTerminal {
            FileHandle.standardError.write(Data(prompt.utf8))
            var original = termios()
            tcgetattr(STDIN_FILENO, &original)
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
            defer {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
                FileHandle.standardError.write(Data("\n".utf8))
            }
            return (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asks a yes/no question on the terminal; false when there is no terminal to ask.
    static func confirm(_ question: String) -> Bool {
        guard stdinIsTerminal else { return false }
        FileHandle.standardError.write(Data((question + " [y/N] ").utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}
