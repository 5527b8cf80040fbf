import Foundation
import ProcessHarness
import Testing
import ToolSupport

@testable import BuilderOSKit

/// TLS peer verification is always on, and an extra CA file is trusted in addition to the system's.
/// The peer is a real TLS server: `openssl s_server` with a self-signed certificate for 127.0.0.1.
struct TLSTests {
    @Test func restRefusesAnUntrustedCertificateAndTrustsTheExtraCA() async throws {
        let server = try await OpenSSLServer.start()
        defer { server.stop() }
        var configuration = ClientConfiguration()
        configuration.retry = .never
        await #expect(throws: BuilderOSError.tlsFailure) {
            try await RESTClient(server: server.address, apiKey: "k", configuration: configuration).status()
        }
        configuration.extraCAFile = server.certificate.path
        // The handshake now succeeds; s_server answers with an HTML status page, not BuilderOS JSON.
        await #expect(throws: BuilderOSError.malformedResponse) {
            try await RESTClient(server: server.address, apiKey: "k", configuration: configuration).status()
        }
    }

    @Test func webSocketRefusesAnUntrustedCertificateAndTrustsTheExtraCA() async throws {
        let server = try await OpenSSLServer.start()
        defer { server.stop() }
        var configuration = ClientConfiguration()
        let url = server.address.webSocketURL(path: ChatAgent.jarvis.socketPath)
        #expect(url.hasPrefix("wss://"))
        await #expect(throws: BuilderOSError.tlsFailure) {
            _ = try await WebSocketChannel.connect(url: url, host: "127.0.0.1", configuration: configuration, pingInterval: 0)
        }
        configuration.extraCAFile = server.certificate.path
        await #expect(throws: BuilderOSError.malformedResponse) {
            _ = try await WebSocketChannel.connect(url: url, host: "127.0.0.1", configuration: configuration, pingInterval: 0)
        }
    }
}

/// `openssl s_server -www` on a free loopback port with a fresh self-signed certificate.
final class OpenSSLServer: @unchecked Sendable {
    let folder: URL
    let certificate: URL
    let address: ServerAddress
    private var process = Process()

    /// With `files`, the server answers each path with the file's content as the whole HTTP response
    /// (`s_server -HTTP`); without, with its own status page (`-www`).
    static func start(files: [String: String] = [:]) async throws -> OpenSSLServer {
        try await offThePool { try OpenSSLServer(files: files) }
    }

    private init(files: [String: String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        certificate = folder.appendingPathComponent("cert.pem")
        let key = folder.appendingPathComponent("key.pem")
        _ = try Shell.runBlocking(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-keyout", key.path, "-out", certificate.path, "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        for (path, content) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: file, atomically: true, encoding: .utf8)
        }
        // A free port can be taken between the pick and s_server's bind (tests run in parallel, and
        // then two tests talked to one iterative s_server and timed out): a server that did not
        // bind exits, and is started again on another port.
        var port = 0
        for _ in 0..<5 {
            port = Loopback.closedPort()
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.currentDirectoryURL = folder
            process.arguments = [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate.path, "-key", key.path,
                files.isEmpty ? "-www" : "-HTTP", "-quiet",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until it accepts connections (or has exited).
            for _ in 0..<200 where process.isRunning && !Loopback.accepts(port: port) { usleep(25_000) }
            usleep(50_000)
            if process.isRunning { break }
        }
        address = try ServerAddress.parse("https://127.0.0.1:\(port)")
    }

    func stop() {
        // SIGKILL: s_server may not act on SIGTERM, and then waitUntilExit would wait forever.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
