import CShims
import Foundation
import ProcessHarness
import Testing

@testable import BuilderOSKit

/// TLS peer verification is always on, and an extra CA file is trusted in addition to the system's.
/// The peer is a real TLS server: `openssl s_server` with a self-signed certificate for 127.0.0.1.
struct TLSTests {
    @Test func restRefusesAnUntrustedCertificateAndTrustsTheExtraCA() async throws {
        let server = try await OpenSSLServer.start()
        defer { server.stop() }
        var configuration = ClientConfiguration()
        configuration.retry = .never
        // GnuTLS (Debian's libcurl flavour) does not tell self-signed from an unknown authority.
        _ = bos_curl_load()
        await #expect(throws: BuilderOSError.tlsFailure(bos_curl_is_gnutls() != 0 ? .untrustedIssuer : .selfSigned)) {
            try await RESTClient(server: server.address, apiKey: "k", configuration: configuration).status()
        }
        configuration.extraCAFile = server.authority.path
        // The handshake now succeeds; s_server answers with an HTML status page, not BuilderOS JSON.
        await #expect(throws: BuilderOSError.malformedResponse) {
            try await RESTClient(server: server.address, apiKey: "k", configuration: configuration).status()
        }
    }

    /// A server's extra authority (its settings' `ca-file`) reaches the session's requests: trusted with it, refused
    /// without it.
    @MainActor @Test func aServersExtraAuthorityIsTrustedForItsSessionOnly() async throws {
        let server = try await OpenSSLServer.start()
        defer { server.stop() }
        var profile = ServerProfile(address: server.address.baseURL, historyFile: "h")
        func session() -> AppSession {
            var configuration = ChatConfiguration()
            configuration.network = profile.network
            configuration.network.retry = .never
            return AppSession(server: server.address, apiKey: "k", deviceID: "d", history: HistoryStore.inMemory(), chatConfiguration: configuration)
        }
        _ = bos_curl_load()
        await #expect(throws: BuilderOSError.tlsFailure(bos_curl_is_gnutls() != 0 ? .untrustedIssuer : .selfSigned)) {
            try await session().api(timeout: 5).status()
        }
        profile.caFile = server.authority.path
        // The handshake succeeds; s_server's HTML page is not BuilderOS JSON.
        await #expect(throws: BuilderOSError.malformedResponse) { try await session().api(timeout: 5).status() }
    }

    /// Each way a certificate fails gets its own sentence: verification stays on in every case.
    @Test(arguments: [OpenSSLServer.Certificate.fromPrivateAuthority, .forOtherNames, .expired])
    func restSaysWhatIsWrongWithTheCertificate(certificate: OpenSSLServer.Certificate) async throws {
        // Trusted, the authority leaves only the problem under test (an untrusted one is that problem).
        let (trustingItsAuthority, problem): (Bool, TLSProblem) =
            switch certificate {
            case .fromPrivateAuthority, .selfSigned: (false, .untrustedIssuer)
            case .forOtherNames: (true, .otherName(host: "127.0.0.1", certificateNames: ["other.example"]))
            case .expired: (true, .expired)
            }
        let server = try await OpenSSLServer.start(certificate: certificate)
        defer { server.stop() }
        var configuration = ClientConfiguration()
        configuration.retry = .never
        if trustingItsAuthority { configuration.extraCAFile = server.authority.path }
        await #expect(throws: BuilderOSError.tlsFailure(problem)) {
            try await RESTClient(server: server.address, apiKey: "k", configuration: configuration).status()
        }
    }

    /// The chat socket's handshake (GIO) tells the same problems, and names every name of the certificate.
    @Test(arguments: [OpenSSLServer.Certificate.fromPrivateAuthority, .forOtherNames, .expired])
    func webSocketSaysWhatIsWrongWithTheCertificate(certificate: OpenSSLServer.Certificate) async throws {
        let (trustingItsAuthority, problem): (Bool, TLSProblem) =
            switch certificate {
            case .fromPrivateAuthority: (false, .untrustedIssuer)
            case .selfSigned: (false, .selfSigned)
            case .forOtherNames: (true, .otherName(host: "127.0.0.1", certificateNames: ["other.example", "www.other.example"]))
            case .expired: (true, .expired)
            }
        let server = try await OpenSSLServer.start(certificate: certificate)
        defer { server.stop() }
        var configuration = ClientConfiguration()
        if trustingItsAuthority { configuration.extraCAFile = server.authority.path }
        let url = server.address.webSocketURL(path: ChatAgent.jarvis.socketPath)
        await #expect(throws: BuilderOSError.tlsFailure(problem)) {
            _ = try await WebSocketChannel.connect(url: url, host: "127.0.0.1", configuration: configuration, pingInterval: 0)
        }
    }

    @Test func theCertificatesNamesAreReadFromItsAlternativeNames() {
        #expect(
            TLSProblem.names(fromSubjectAltNames: " DNS:a.example, DNS:b.example, IP Address:10.0.0.1, email:x@y") == [
                "a.example", "b.example", "10.0.0.1",
            ])
        #expect(
            BuilderOSError.tlsFailure(.otherName(host: "10.0.0.2", certificateNames: ["a.example", "b.example"])).userMessage.contains(
                "a.example, b.example"))
    }

    @Test func webSocketRefusesAnUntrustedCertificateAndTrustsTheExtraCA() async throws {
        let server = try await OpenSSLServer.start()
        defer { server.stop() }
        var configuration = ClientConfiguration()
        let url = server.address.webSocketURL(path: ChatAgent.jarvis.socketPath)
        #expect(url.hasPrefix("wss://"))
        await #expect(throws: BuilderOSError.tlsFailure(.selfSigned)) {
            _ = try await WebSocketChannel.connect(url: url, host: "127.0.0.1", configuration: configuration, pingInterval: 0)
        }
        configuration.extraCAFile = server.authority.path
        await #expect(throws: BuilderOSError.malformedResponse) {
            _ = try await WebSocketChannel.connect(url: url, host: "127.0.0.1", configuration: configuration, pingInterval: 0)
        }
    }
}

/// `openssl s_server -www` on a free loopback port with a fresh self-signed certificate.
final class OpenSSLServer: @unchecked Sendable {
    /// The server's certificate.
    enum Certificate: Sendable {
        /// Self-signed, for 127.0.0.1.
        case selfSigned
        /// Issued for 127.0.0.1 by a private authority (`authority`).
        case fromPrivateAuthority
        /// Self-signed, for other.example and www.other.example.
        case forOtherNames
        /// Issued by a private authority, valid for January 2020 only.
        case expired
    }

    let folder: URL
    let certificate: URL
    /// What to trust for the certificate to verify: the authority that issued it, or itself.
    let authority: URL
    let address: ServerAddress
    private var process = Process()

    /// With `files`, the server answers each path with the file's content as the whole HTTP response
    /// (`s_server -HTTP`); without, with its own status page (`-www`).
    static func start(files: [String: String] = [:], certificate: Certificate = .selfSigned) async throws -> OpenSSLServer {
        try await offThePool { try OpenSSLServer(files: files, kind: certificate) }
    }

    private init(files: [String: String], kind: Certificate) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificatePath = folder.appendingPathComponent("cert.pem")
        certificate = certificatePath
        let key = folder.appendingPathComponent("key.pem")
        // In the certificate's folder: `openssl ca` writes its database beside the configuration it reads.
        let directory = folder
        let openssl = { (arguments: [String]) throws in _ = try Shell.runBlocking("/usr/bin/openssl", arguments, in: directory) }
        let selfSigned = { (names: String, subject: String) throws in
            try openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-keyout", key.path, "-out", certificatePath.path,
                "-subj", subject, "-addext", "subjectAltName=\(names)",
            ])
        }
        switch kind {
        case .selfSigned:
            try selfSigned("IP:127.0.0.1", "/CN=127.0.0.1")
            authority = certificate
        case .forOtherNames:
            try selfSigned("DNS:other.example,DNS:www.other.example", "/CN=other.example")
            authority = certificate
        case .fromPrivateAuthority, .expired:
            authority = folder.appendingPathComponent("authority.pem")
            let authorityKey = folder.appendingPathComponent("authority-key.pem"), request = folder.appendingPathComponent("cert.csr")
            try openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", authorityKey.path, "-out", authority.path,
                "-subj", "/CN=BuilderOS test authority",
            ])
            try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", request.path, "-subj", "/CN=127.0.0.1"])
            // `openssl ca` is the tool that sets a certificate's dates freely (an expired one).
            let configuration = folder.appendingPathComponent("ca.cnf")
            try [
                "[ca]", "default_ca=d", "[d]", "database=index.txt", "new_certs_dir=.", "serial=serial", "default_md=sha256", "policy=p",
                "unique_subject=no", "x509_extensions=e", "[p]", "commonName=supplied", "[e]", "subjectAltName=IP:127.0.0.1",
            ].joined(separator: "\n").write(to: configuration, atomically: true, encoding: .utf8)
            try "".write(to: folder.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
            try "01\n".write(to: folder.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
            let dates = kind == .expired ? ["-startdate", "20200101000000Z", "-enddate", "20200201000000Z"] : ["-days", "1"]
            try openssl(
                [
                    "ca", "-batch", "-config", configuration.path, "-cert", authority.path, "-keyfile", authorityKey.path,
                    "-in", request.path, "-out", certificate.path,
                ] + dates)
        }
        for (path, content) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: file, atomically: true, encoding: .utf8)
        }
        // s_server binds a port the kernel picks and prints it ("ACCEPT 127.0.0.1:PORT"). With a port picked
        // here first, another test's server could take it before s_server bound it, and the wait for the port
        // to accept would end at that server: this test would talk to it, one connection at a time.
        let output = folder.appendingPathComponent("s_server.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.currentDirectoryURL = folder
        process.arguments = [
            "s_server", "-accept", "127.0.0.1:0", "-cert", certificate.path, "-key", key.path, files.isEmpty ? "-www" : "-HTTP",
        ]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        var port: Int?
        for _ in 0..<400 where port == nil && process.isRunning {
            let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            port = printed.split(separator: "\n").first { $0.hasPrefix("ACCEPT ") }?.split(separator: ":").last.flatMap { Int($0) }
            if port == nil { usleep(25_000) }
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            try? FileManager.default.removeItem(at: folder)
            throw POSIXError(.EADDRNOTAVAIL)
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
