import ArgumentParser
import BuilderOSKit
import Foundation

@main
struct BuilderOSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "builderos",
        abstract: "Talk to your BuilderOS server from the terminal.",
        discussion: """
            Several servers can be set up (`login` adds one, `servers` lists them, `use` picks the active one); \
            `--server NAME|URL` chooses another for one command.

            The API key is kept in your keyring (Secret Service) only. It is never accepted as an \
            argument or environment variable: `login` reads it from a hidden prompt, or from standard \
            input when that is not a terminal.

            Exit codes: 0 ok, 1 other failure, 2 usage, 3 not logged in (to that server), 4 server unreachable, \
            5 API key rejected, 6 not available on this server.
            """,
        version: BuilderOSKit.version,
        subcommands: [
            Login.self, Servers.self, Use.self, Rename.self, Status.self, Capsules.self, Chat.self, TerminalCommand.self, Sleep.self, History.self,
            Logout.self,
        ]
    )

    static func main() async {
        // Die quietly when the reader goes away (`builderos chat … | head`), as Unix tools do.
        signal(SIGPIPE, SIG_DFL)
        ProcessHardening.apply(.noAttach)
        SignedInSession.startEarly(arguments: CommandLine.arguments)
        Localization.setUp(localeDirectory: Localization.directory())
        await runCommand()
    }

    /// Runs the command and exits from the thread that ran it. Returning to `main`, which runs on the
    /// main actor, would hand the end to the main queue, and after `dispatch_main` that takes a thread
    /// made for it.
    nonisolated private static func runCommand() async -> Never {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CLIFailure {
            Terminal.error(failure.error.userMessage)
            if let fix = failure.fixIt { Terminal.error(fix) }
            Foundation.exit(failure.exitCode)
        } catch {
            // Help and version go to stdout with 0; usage problems exit 2 (not sysexits' 64).
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .success {
                if !text.isEmpty { Terminal.line(text) }
                Foundation.exit(0)
            }
            if !text.isEmpty { Terminal.error(text) }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
        Foundation.exit(0)
    }
}
