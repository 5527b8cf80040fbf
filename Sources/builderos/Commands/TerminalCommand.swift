import ArgumentParser
import BuilderOSKit
import Foundation

/// `builderos terminal`: this terminal attached to a shell on the server (its terminal socket).
/// Raw mode while attached, restored on every way out; the window's size follows (SIGWINCH);
/// Ctrl+] detaches. A session the shell ended (`exit`) exits 0.
struct TerminalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "Open a shell on the server in this terminal (Ctrl+] detaches).")

    @OptionGroup var target: ServerChoice

    @Option(help: "shell, jarvis (starts claude) or codex (starts codex).") var profile: String = TerminalProfile.shell.rawValue

    func validate() throws {
        guard TerminalProfile(rawValue: profile) != nil else {
            throw ValidationError(L("Unknown profile “%@”: use shell, jarvis or codex.", profile))
        }
        guard Terminal.stdinIsTerminal, Terminal.stdoutIsTerminal else {
            throw ValidationError(L("builderos terminal needs a terminal: run it in a terminal window, not with its input or output redirected."))
        }
    }

    func run() async throws {
        let session = try await SignedInSession.load(target)
        let connection: TerminalConnection
        do {
            connection = try await TerminalConnection.open(server: session.server, apiKey: session.apiKey, configuration: session.profile.network)
        } catch {
            throw CLIFailure(error: error)
        }
        let raw = RawMode.enter()
        defer { raw.restore() }
        Terminal.message(L("Connected to %@. Ctrl+] detaches.", session.server.displayURL) + "\r\n")
        connection.resize(rows: RawMode.windowSize().rows, cols: RawMode.windowSize().cols)
        if let start = TerminalProfile.startBytes(command: TerminalProfile(rawValue: profile)!.defaultCommand) { connection.send(start) }

        let resizes = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        signal(SIGWINCH, SIG_IGN)
        resizes.setEventHandler {
            let size = RawMode.windowSize(); connection.resize(rows: size.rows, cols: size.cols)
        }
        resizes.resume()
        defer { resizes.cancel() }
        let detached = KeyboardPump.start(sending: connection)

        var ending: TerminalEvent = .closed(shellExited: false)
        for await event in connection.events {
            switch event {
            case .output(let bytes):
                RawMode.write(bytes)
                connection.shown(bytes.count)
            case .closed: ending = event
            }
        }
        raw.restore()
        if detached.isSet {
            Terminal.message("\r\n" + L("Detached. The shell on the server has ended.") + "\n")
            return
        }
        guard ending == .closed(shellExited: true) else { throw CLIFailure(error: .connectionLost) }
        Terminal.message("\r\n" + L("The shell on the server has ended.") + "\n")
    }
}

/// Reads the keyboard on a thread of its own and sends what was typed. Ctrl+] (0x1D) detaches: the
/// bytes before it go out, then the socket closes.
enum KeyboardPump {
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    static func start(sending connection: TerminalConnection) -> Flag {
        let detached = Flag()
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { connection.close(); return }
                let typed = buffer[0..<count]
                if let escape = typed.firstIndex(of: 0x1D) {
                    if escape > 0 { connection.send(Data(typed[..<escape])) }
                    detached.set()
                    connection.close()
                    return
                }
                connection.send(Data(typed))
            }
        }
        return detached
    }
}
