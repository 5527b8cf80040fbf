import ArgumentParser
import CProcess
import Foundation
import ReferenceServer

@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "builderos-server",
        abstract: "BuilderOS reference server: the wire contract on loopback, for demos and tests.",
        discussion:
            "Prints its URL once listening. The API key is read from --key-file (created with a new random key, mode 0600, when missing); it is never printed."
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free port (the URL line tells which).") var port = 8080
    @Option(help: "File holding the API key.") var keyFile: String
    @Option(help: "Folder for uploaded files (default: a new temporary folder, made at the first upload).") var uploadDir: String?
    @Flag(help: "Behave like a core server without the system server (capsules and power answer 404).") var noSystemRoutes = false
    @Option(help: "Milliseconds to wait between two reply chunks.") var chunkDelayMs = 0
    @Option(help: "Milliseconds to wait before answering a request or starting a reply (a slow server).") var responseDelayMs = 0
    @Option(help: "Benchmarks: stream every reply as this many chunks a second (0: the normal reply).") var pacedChunksPerSecond = 0
    @Option(help: "Benchmarks: for this many seconds.") var pacedSeconds = 10
    @Option(help: "Benchmarks: stream a Markdown document of this many bytes at the paced rate instead.") var pacedDocumentBytes = 0
    @Option(help: "Append every chat message received to this file as a JSON line (for delivery tests).") var messageLog: String?
    @Flag(help: "Allow GET/PUT /__reference/faults to change fault switches at run time.") var testControls = false
    @Option(help: "Close the chat socket on the next N messages, before any reply (a server that cannot take a message).")
    var dropBeforeReply = 0
    @Flag(help: "Offer /api/terminal/ws: a shell on this machine, in your home folder, for whoever has the key.") var enableTerminal = false
    @Option(help: "Terminal: run this command (split at spaces) instead of your login shell.") var terminalShell: String?
    @Option(help: "Also serve a small demo web page on this port (0: none), for the app's Preview page.") var demoWebPort = 0
    @Flag(help: "Exit when standard input ends: a test's server ends with the test process that holds its input, even when that process crashes.")
    var exitWhenInputEnds = false

    func run() async throws {
        // The server holds the key too: no core dump of it (see BuilderOSKit's ProcessHardening).
        _ = bos_harden_process(1)
        let key = try KeyFile.loadOrCreate(at: keyFile)
        let uploads = uploadDir.map { URL(fileURLWithPath: $0) } ?? KeyFile.temporaryFolder()
        let state = ServerState(apiKey: key, uploadDirectory: uploads, messageLog: messageLog.map { URL(fileURLWithPath: $0) })
        var faults = Faults()
        faults.systemRoutesAbsent = noSystemRoutes
        faults.chunkDelayMilliseconds = chunkDelayMs
        faults.responseDelayMilliseconds = responseDelayMs
        faults.pacedChunksPerSecond = pacedChunksPerSecond
        faults.pacedSeconds = pacedSeconds
        faults.pacedDocumentBytes = pacedDocumentBytes
        faults.dropBeforeReplyCount = dropBeforeReply
        state.faults = faults
        state.terminalCommand = terminalShell.map { $0.split(separator: " ").map(String.init) }
        let server = ReferenceServer(state: state, host: host, port: port, testControls: testControls, terminalEnabled: enableTerminal)
        if exitWhenInputEnds {
            // The kernel closes the pipe's other end when its holder ends, however it ends.
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) > 0 {}
                _exit(0)
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run { url in
                    print("BuilderOS reference server listening on \(url)")
                    fflush(nil)  // flush every stream: tests wait for this line
                }
            }
            if demoWebPort > 0 {
                let page = DemoWebPage(host: host, port: demoWebPort)
                // A port already taken (a real dev server there) costs the demo page, not the server.
                group.addTask {
                    do {
                        try await page.run { url in
                            print("Demo web page on \(url)")
                            fflush(nil)
                        }
                    } catch {
                        print("The demo web page could not use port \(page.port): \(error)")
                        fflush(nil)
                        try await Task.sleep(nanoseconds: .max)
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
