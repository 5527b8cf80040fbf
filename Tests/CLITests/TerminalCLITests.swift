import Foundation
import ProcessHarness
import Testing

/// `builderos terminal` in a real pseudo-terminal (`script`) against the reference server's terminal
/// socket: a command's output, `exit` ending the session with 0, Ctrl+] detaching, the terminal
/// restored, and the usage and exit codes around it.
@Suite(.serialized)
struct TerminalCLITests {
    /// A shell without startup files: the tests must not depend on this machine's ~/.profile.
    static let terminal = ["--enable-terminal", "--terminal-shell", "/bin/bash --noprofile --norc -i"]

    func signedIn(_ arguments: [String] = TerminalCLITests.terminal) async throws -> (CLISandbox, ServerProcess) {
        let server = try ServerProcess(arguments: arguments)
        let sandbox = try CLISandbox()
        try await sandbox.signIn(to: server)
        return (sandbox, server)
    }

    /// Runs `builderos terminal ARGS` on a pseudo-terminal, typing `input` (a shell `printf` script with
    /// pauses) into it; returns the exit status and everything the terminal showed.
    func attach(_ sandbox: CLISandbox, _ arguments: String = "", typing input: String) async throws -> CLIResult {
        let command =
            "(\(input)) | script -qec \"echo stty-before: \\$(stty -g); '\(Binaries.path("builderos"))' terminal \(arguments); code=\\$?; echo; echo stty-after: \\$(stty -g); exit \\$code\" /dev/null"
        return try await sandbox.run(["-c", command], executable: "/bin/bash")
    }

    @Test func aCommandRunsAndExitEndsTheSession() async throws {
        let (sandbox, server) = try await signedIn()
        defer { server.stop() }
        let result = try await attach(sandbox, typing: "sleep 1.5; printf 'echo hi-$((2+3))-there\\r'; sleep 1; printf 'exit\\r'; sleep 1")
        #expect(result.stdout.contains("hi-5-there"), "\(result.stdout)")
        #expect(result.stdout.contains("The shell on the server has ended."), "\(result.stdout)")
        #expect(result.status == 0, "\(result.stderr)")
        // Raw mode is undone: the line discipline echoes and handles lines again (icanon, echo).
        func modes(_ label: String) -> String? {
            result.stdout.split(separator: "\n").last { $0.contains(label) }.map {
                String($0.split(separator: ":").dropFirst().joined(separator: ":")).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        #expect(modes("stty-before:") != nil && modes("stty-before:") == modes("stty-after:"), "the terminal's modes are as before")
    }

    /// Keys typed before the session is connected (the terminal still in its normal mode) reach the
    /// shell: entering raw mode must not flush them.
    @Test func keysTypedWhileConnectingAreNotLost() async throws {
        let (sandbox, server) = try await signedIn()
        defer { server.stop() }
        let result = try await attach(sandbox, typing: "printf 'echo early-$((3+4))\\r'; sleep 2; printf 'exit\\r'; sleep 1")
        #expect(result.stdout.contains("early-7"), "\(result.stdout)")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func ctrlBracketDetaches() async throws {
        let (sandbox, server) = try await signedIn()
        defer { server.stop() }
        let result = try await attach(sandbox, typing: "sleep 1.5; printf 'echo before-$((1+1))\\r'; sleep 1; printf '\\035'; sleep 1")
        #expect(result.stdout.contains("before-2"), "\(result.stdout)")
        #expect(result.stdout.contains("Detached."), "\(result.stdout)")
        #expect(result.status == 0)
    }

    @Test func theJarvisProfileTypesItsCommand() async throws {
        let (sandbox, server) = try await signedIn()
        defer { server.stop() }
        // `claude` is not installed here: the shell's "not found" proves the command was typed.
        let result = try await attach(sandbox, "--profile jarvis", typing: "sleep 2; printf 'exit\\r'; sleep 1")
        #expect(result.stdout.contains("claude"), "\(result.stdout)")
        #expect(result.status == 0)
    }

    @Test func aServerWithoutTerminalsSaysSo() async throws {
        let (sandbox, server) = try await signedIn([])
        defer { server.stop() }
        let result = try await attach(sandbox, typing: "sleep 1")
        #expect(result.stdout.contains("not available on this server"), "\(result.stdout)")
        #expect(!result.stdout.contains("Connected to"))
    }

    @Test func withoutATerminalItIsAUsageError() async throws {
        let (sandbox, server) = try await signedIn()
        defer { server.stop() }
        let result = try await sandbox.run(["terminal"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("needs a terminal"), "\(result.stderr)")
        let unknown = try await sandbox.run(["terminal", "--profile", "root"])
        #expect(unknown.status == 2)
    }
}
