import Foundation
import ProcessHarness
import Testing

@testable import BuilderOSKit

/// A redirect is never followed, by REST (curl) or the chat socket (libsoup): the key goes only to the
/// configured address. Each case points the client at a hostile server whose 3xx names a "thief" that
/// counts connections; the thief must see none, and the error must say where the redirect pointed.
struct RedirectTests {
    enum Target: String, CaseIterable, Sendable {
        /// Another port of the same host.
        case sameHost
        /// Another loopback address: another host as far as the client knows.
        case otherHost
    }

    func thief(_ target: Target) throws -> HostileServer {
        try HostileServer.thief(host: target == .sameHost ? "127.0.0.1" : "127.0.0.2")
    }

    func expectRedirect(_ error: BuilderOSError?, to location: String, status: Int = 302) {
        #expect(error == .redirected(status: status, location: location))
        #expect(error?.userMessage.contains(location) == true)
    }

    @Test(arguments: Target.allCases)
    func restNamesTheRedirectAndNeverFollowsIt(target: Target) async throws {
        let thief = try thief(target)
        defer { thief.stop() }
        let server = try HostileServer.redirecting { path in thief.url + path.value }
        defer { server.stop() }
        var configuration = ClientConfiguration()
        configuration.retry = .never
        let client = RESTClient(server: try ServerAddress.parse(server.url), apiKey: TestKeys.make(), configuration: configuration)
        var caught: BuilderOSError?
        do throws(BuilderOSError) { _ = try await client.status() } catch { caught = error }
        expectRedirect(caught, to: thief.url + "/api/status")
        #expect(thief.connections == 0)
        #expect(!caught!.isTransient)
    }

    @Test(arguments: Target.allCases, [301, 302, 307, 308])
    func chatSocketNeverFollowsARedirect(target: Target, status: Int) async throws {
        let thief = try thief(target)
        defer { thief.stop() }
        let server = try HostileServer.redirecting(status: status) { path in "ws://\(thief.host):\(thief.port)" + path.value }
        defer { server.stop() }
        let url = try ServerAddress.parse(server.url).webSocketURL(path: ChatAgent.jarvis.socketPath)
        var caught: BuilderOSError?
        do {
            _ = try await WebSocketChannel.connect(url: url, host: server.host, configuration: .init(), pingInterval: 0)
        } catch { caught = error }
        expectRedirect(caught, to: "ws://\(thief.host):\(thief.port)/api/claude/ws", status: status)
        #expect(thief.connections == 0)
    }

    @Test func aRedirectLoopEndsAtTheFirstAnswer() async throws {
        // Location relative to the request: the same URL again.
        let server = try HostileServer.redirecting { path in path.value }
        defer { server.stop() }
        let address = try ServerAddress.parse(server.url)
        var caught: BuilderOSError?
        do {
            _ = try await WebSocketChannel.connect(
                url: address.webSocketURL(path: ChatAgent.jarvis.socketPath), host: server.host,
                configuration: .init(), pingInterval: 0)
        } catch { caught = error }
        expectRedirect(caught, to: "ws://127.0.0.1:\(server.port)/api/claude/ws")
        var configuration = ClientConfiguration()
        configuration.retry = .never
        await #expect(throws: BuilderOSError.redirected(status: 302, location: server.url + "/api/status")) {
            try await RESTClient(server: address, apiKey: "k", configuration: configuration).status()
        }
        #expect(server.requestLines.count == 2)
    }

    /// What `builderos login` and the wizard run: a server that answers `/api/status` like BuilderOS but
    /// redirects the chat socket must fail the key check, with the key never reaching the thief.
    @Test func theLoginKeyCheckFailsOnARedirectedSocket() async throws {
        let thief = try thief(.otherHost)
        defer { thief.stop() }
        let body = #"{"status":"running","version":"1.0","uptime":1,"health":"ok"}"#
        let server = try HostileServer { line in
            if HostileServer.Path(line).value == "/api/status" {
                return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            }
            return "HTTP/1.1 307 Moved\r\nLocation: ws://\(thief.host):\(thief.port)/api/claude/ws\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        }
        defer { server.stop() }
        let report = await ConnectionTest(server: try ServerAddress.parse(server.url), apiKey: TestKeys.make()).run()
        #expect(report.firstFailure?.step == .key)
        #expect(report.firstFailure?.error == .redirected(status: 307, location: "ws://\(thief.host):\(thief.port)/api/claude/ws"))
        #expect(thief.connections == 0)
    }

    /// wss:// to a TLS server whose 301 points at plain ws:// on another host: the key would cross the
    /// network in clear text. The TLS server is `openssl s_server -HTTP` answering from prepared files.
    @Test func httpsNeverRedirectsToPlainHTTP() async throws {
        let thief = try thief(.otherHost)
        defer { thief.stop() }
        let location = "ws://\(thief.host):\(thief.port)/api/claude/ws"
        let server = try await OpenSSLServer.start(files: [
            "api/claude/ws": "HTTP/1.1 301 Moved Permanently\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            "api/status":
                "HTTP/1.1 301 Moved Permanently\r\nLocation: http://\(thief.host):\(thief.port)/api/status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        ])
        defer { server.stop() }
        var configuration = ClientConfiguration()
        configuration.extraCAFile = server.certificate.path
        configuration.retry = .never
        // openssl s_server answers one connection at a time and can be slow to start on a loaded machine.
        configuration.connectTimeout = 60
        configuration.requestTimeout = 60
        var caught: BuilderOSError?
        do {
            _ = try await WebSocketChannel.connect(
                url: server.address.webSocketURL(path: ChatAgent.jarvis.socketPath), host: "127.0.0.1",
                configuration: configuration, pingInterval: 0)
        } catch { caught = error }
        expectRedirect(caught, to: location, status: 301)
        await #expect(throws: BuilderOSError.redirected(status: 301, location: "http://\(thief.host):\(thief.port)/api/status")) {
            try await RESTClient(server: server.address, apiKey: TestKeys.make(), configuration: configuration).status()
        }
        #expect(thief.connections == 0)
    }

    /// The app's and the CLI's chat client: a redirect is a failed connection like any other (retried
    /// with backoff, the state says why), and the thief never hears from it.
    @Test func theChatClientReportsTheRedirectAndKeepsTheKey() async throws {
        let thief = try thief(.otherHost)
        defer { thief.stop() }
        let server = try HostileServer.redirecting(status: 308) { path in "ws://\(thief.host):\(thief.port)" + path.value }
        defer { server.stop() }
        var configuration = ChatConfiguration()
        configuration.reconnect = Backoff(base: 0.05, maximum: 0.1)
        let client = ChatClient(server: try ServerAddress.parse(server.url), apiKey: TestKeys.make(), agent: .jarvis, configuration: configuration)
        let log = EventLog(client)
        await client.start()
        // Reported, and tried again after the backoff (and reported again): a failed connection like any other.
        let redirected = await log.wait(seconds: 30) { events in
            events.filter { if case .connection(.waitingToReconnect(.redirected, _)) = $0 { true } else { false } }.count >= 2
        }
        await client.shutdown()
        #expect(redirected)
        #expect(thief.connections == 0)
    }
}
