import ArgumentParser
import BuilderOSKit
import Foundation

/// `--raw`, shared by every command that prints what a server sent.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Write the server's text unchanged, control characters included (only when the output is not a terminal).")
    var raw = false

    func validate() throws {
        if raw && Terminal.stdoutIsTerminal {
            throw ValidationError(
                L(
                    "--raw writes the server's text with its control characters, which could act on this terminal; it is only allowed when the output goes to a pipe or a file."
                ))
        }
    }

    func apply() { Terminal.rawOutput = raw }
}
