import Foundation
import ReferenceServer
import Testing
import ToolSupport

@testable import BuilderOSKit

/// The Preview page's probe against real sockets on loopback: a page with a title (the reference
/// server's demo page), a refused port, a silent server, a 404, a redirect, something not HTTP.
/// No credential of any kind goes out.
struct PortProbeTests {
    /// Generous for servers that answer (a loaded CI machine is slow); the silent server's test uses a short one.
    let probe = PortProbe(timeout: 10)

    func port(of url: String) -> Int { URLComponents(string: url)!.port! }

    @Test func theDemoPageIsUpWithItsTitle() async throws {
        let bound = AsyncStream<String>.makeStream()
        let server = Task { try await DemoWebPage(port: 0).run { url in bound.continuation.yield(url) } }
        defer { server.cancel() }
        var iterator = bound.stream.makeAsyncIterator()
        let url = try #require(await iterator.next())
        #expect(await probe.probe(host: "127.0.0.1", port: port(of: url)) == .up(status: 200, title: DemoWebPage.title, redirect: nil))
    }

    @Test func aClosedPortHasNothingListening() async {
        #expect(await probe.probe(host: "127.0.0.1", port: Loopback.closedPort()) == .nothingListening)
    }

    @Test func aServerThatNeverAnswersIsNoAnswer() async throws {
        // Listening (so the connection is made) but never reading or writing.
        let (socket, port) = try #require(Loopback.bind())
        #expect(listen(socket, 4) == 0)
        defer { close(socket) }
        #expect(await PortProbe(timeout: 1).probe(host: "127.0.0.1", port: port) == .noAnswer)
    }

    @Test func aNotFoundIsStillUp() async throws {
        let page = "<title>Cannot GET /</title>nothing"
        let server = try HostileServer { _ in
            "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n\(page)"
        }
        defer { server.stop() }
        #expect(await probe.probe(host: "127.0.0.1", port: server.port) == .up(status: 404, title: "Cannot GET /", redirect: nil))
    }

    @Test func aRedirectIsReportedNotFollowed() async throws {
        let thief = try HostileServer.thief()
        defer { thief.stop() }
        let sameHost = try HostileServer.redirecting { _ in "/login?next=%2F" }
        defer { sameHost.stop() }
        #expect(await probe.probe(host: "127.0.0.1", port: sameHost.port) == .up(status: 302, title: nil, redirect: "/login?next=%2F"))
        let elsewhere = try HostileServer.redirecting(status: 301) { _ in thief.url + "/" }
        defer { elsewhere.stop() }
        #expect(await probe.probe(host: "127.0.0.1", port: elsewhere.port) == .up(status: 301, title: nil, redirect: thief.url + "/"))
        #expect(thief.connections == 0, "the redirect was not followed")
    }

    @Test func oneRequestForTheRootPage() async throws {
        let server = try HostileServer { _ in "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" }
        defer { server.stop() }
        #expect(await probe.probe(host: "127.0.0.1", port: server.port) == .up(status: 200, title: nil, redirect: nil))
        #expect(server.requestLines == ["GET / HTTP/1.1"])
    }

    @Test func aHugePageIsReadOnlyAsFarAsNeeded() async throws {
        let body = "<title>Big</title>" + String(repeating: "x", count: 4 << 20)
        let server = try HostileServer { _ in
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        }
        defer { server.stop() }
        #expect(await probe.probe(host: "127.0.0.1", port: server.port) == .up(status: 200, title: "Big", redirect: nil))
    }

    @Test func somethingThatIsNotHTTP() async throws {
        let server = try HostileServer { _ in "SSH-2.0-OpenSSH_9.2\r\n" }
        defer { server.stop() }
        #expect(await probe.probe(host: "127.0.0.1", port: server.port) == .notHTTP)
    }

    @Test func allPortsAtOnce() async throws {
        let server = try HostileServer { _ in "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" }
        defer { server.stop() }
        let closed = Loopback.closedPort()
        let results = await probe.probeAll(host: "127.0.0.1", ports: [server.port, closed])
        #expect(results == [server.port: .up(status: 200, title: nil, redirect: nil), closed: .nothingListening])
    }
}
