import Foundation
import Testing

@testable import BuilderOSKit

/// The Preview page's rules without sockets: which host previews open on, the custom port field,
/// where links go, page titles, and the probe board with a fake prober.
struct PreviewHostTests {
    static let direct: [(String, String)] = [
        ("http://127.0.0.1:8080", "127.0.0.1"),
        ("http://localhost:8080", "localhost"),
        ("http://192.168.1.20:8080", "192.168.1.20"),
        ("http://10.0.0.5", "10.0.0.5"),
        ("http://100.66.202.6:8080", "100.66.202.6"),  // Tailscale IP
        ("http://[fd7a:115c:a1e0::1]:8080", "[fd7a:115c:a1e0::1]"),
        ("https://203.0.113.7", "203.0.113.7"),  // any IP literal reaches the machine itself
        ("http://studio-mac.local:8080", "studio-mac.local"),  // mDNS
        ("http://mac.tailnet-1234.ts.net:8080", "mac.tailnet-1234.ts.net"),  // Tailscale MagicDNS
        ("http://buildbox:8080", "buildbox"),  // a single-label LAN name
        ("http://nas.lan", "nas.lan"),
        ("http://server.home.arpa", "server.home.arpa"),
    ]

    @Test(arguments: direct)
    func ipAndLanAndVpnAddressesPreviewDirectly(server: String, host: String) throws {
        #expect(PreviewHost.resolve(server: try ServerAddress.parse(server), setting: nil) == .direct(host: host, fromSetting: false))
    }

    @Test(arguments: ["https://abc-def.trycloudflare.com", "https://builderos.example.com", "https://my.ngrok-free.app/base"])
    func tunnelNamesNeedADirectPath(server: String) throws {
        let address = try ServerAddress.parse(server)
        #expect(PreviewHost.resolve(server: address, setting: nil) == .tunnelOnly(serverHost: address.host))
        #expect(PreviewHost.resolve(server: address, setting: "") == .tunnelOnly(serverHost: address.host))
    }

    @Test func theSettingWinsOverTheServerAddress() throws {
        let tunnel = try ServerAddress.parse("https://abc.trycloudflare.com")
        #expect(PreviewHost.resolve(server: tunnel, setting: " 100.64.0.5 ") == .direct(host: "100.64.0.5", fromSetting: true))
        let lan = try ServerAddress.parse("http://192.168.1.2:8080")
        #expect(PreviewHost.resolve(server: lan, setting: "mac.tailnet.ts.net") == .direct(host: "mac.tailnet.ts.net", fromSetting: true))
    }

    @Test func settingValuesAreNormalisedOrRefused() throws {
        #expect(try PreviewHost.parseSetting("") == nil)
        #expect(try PreviewHost.parseSetting("   ") == nil)
        #expect(try PreviewHost.parseSetting("Studio-Mac.Local") == "studio-mac.local")
        #expect(try PreviewHost.parseSetting("fd7a:115c:a1e0::1") == "[fd7a:115c:a1e0::1]")
        #expect(try PreviewHost.parseSetting("[fd7a::1]") == "[fd7a::1]")
        for bad in ["http://100.64.0.5", "100.64.0.5:3000", "mac.local/app", "user@mac", "mac?x", "mac#x"] {
            #expect(throws: PreviewHost.Problem.notAHost, "\(bad)") { try PreviewHost.parseSetting(bad) }
        }
        for bad in ["bad host", "mac\u{1b}[31m"] {
            #expect(throws: PreviewHost.Problem.self, "\(bad)") { try PreviewHost.parseSetting(bad) }
        }
        #expect(PreviewHost.Problem.notAHost.message.contains("no http://"))
    }

    @Test func urlsOfDevServers() {
        #expect(PreviewHost.url(host: "127.0.0.1", port: 3000) == "http://127.0.0.1:3000/")
        #expect(PreviewHost.url(host: "[fd7a::1]", port: 5173) == "http://[fd7a::1]:5173/")
    }
}

struct PortInputTests {
    @Test func validPorts() throws {
        #expect(try PortInput.parse("3001") == 3001)
        #expect(try PortInput.parse(" 1 ") == 1)
        #expect(try PortInput.parse("65535") == 65535)
    }

    @Test(arguments: ["0", "65536", "70000", "-1", "3e3", "abc", "80 80", "３０００", "000003001", "+80"])
    func invalidPortsAreExplained(text: String) {
        #expect(throws: PortInput.Problem.notAPort) { try PortInput.parse(text) }
    }

    @Test func emptyAsksForAPort() {
        #expect(throws: PortInput.Problem.empty) { try PortInput.parse("  ") }
        #expect(PortInput.Problem.notAPort.message == "A port is a whole number from 1 to 65535.")
    }

    @Test func theDesignsFiveQuickLinks() {
        #expect(QuickLink.all.map(\.port) == [3000, 5678, 8080, 5173, 5000])
        #expect(QuickLink.all.map(\.name) == ["React/Next.js", "n8n", "BuilderOS API", "Vite/Vue", "Flask/Django"])
    }
}

struct PreviewNavigationTests {
    @Test func pagesOfThePreviewHostStayInside() {
        #expect(PreviewNavigation.decide(uri: "http://127.0.0.1:3000/about", previewHost: "127.0.0.1") == .inside)
        #expect(PreviewNavigation.decide(uri: "http://127.0.0.1:5173/", previewHost: "127.0.0.1") == .inside)
        #expect(PreviewNavigation.decide(uri: "https://Mac.Local:8443/x", previewHost: "mac.local") == .inside)
        #expect(PreviewNavigation.decide(uri: "http://[fd7a::1]:3000/", previewHost: "[fd7a::1]") == .inside)
        #expect(PreviewNavigation.decide(uri: "about:blank", previewHost: "127.0.0.1") == .inside)
    }

    @Test func otherHostsOpenInTheBrowser() {
        #expect(PreviewNavigation.decide(uri: "https://builderos.example/docs", previewHost: "127.0.0.1") == .browser)
        #expect(PreviewNavigation.decide(uri: "http://127.0.0.2:3000/", previewHost: "127.0.0.1") == .browser)
        #expect(PreviewNavigation.decide(uri: "mailto:team@example.com", previewHost: "127.0.0.1") == .browser)
    }

    @Test func filesAndOtherSchemesAreRefused() {
        for uri in ["file:///etc/passwd", "javascript:alert(1)", "ftp://127.0.0.1/", "data:text/html,hi", "builderos://x", "not a uri"] {
            #expect(PreviewNavigation.decide(uri: uri, previewHost: "127.0.0.1") == .refuse, "\(uri)")
        }
    }

    @Test func loadFailuresNameTheAddress() {
        let url = "http://127.0.0.1:3000/"
        for failure in [PreviewLoadFailure.refused, .timedOut, .hostNotFound, .tls, .other("boom")] {
            #expect(failure.message(url: url).contains(url))
        }
        #expect(PreviewLoadFailure.refused.message(url: url).hasPrefix("Nothing is listening"))
    }
}

struct HTMLTitleTests {
    @Test func titlesAsPeopleReadThem() {
        func title(_ html: String) -> String? { HTMLTitle.extract(from: Data(html.utf8)) }
        #expect(title("<html><head><title>My App</title></head>") == "My App")
        #expect(title("<TITLE lang=en>\n  Vite  +\tReact \n</TITLE>") == "Vite + React")
        #expect(title("<title>Tom &amp; Jerry &#8211; &#x263A; &lt;b&gt;</title>") == "Tom & Jerry – ☺ <b>")
        #expect(title("<title>a\u{1b}[31mred\u{202e}x</title>") == "a[31mredx")
        #expect(title("<title>   </title>") == nil)
        #expect(title("<h1>no title</h1>") == nil)
        #expect(title("<title>unterminated") == nil)
        #expect(title("<title>&unknown; & more</title>") == "&unknown; & more")
        let long = title("<title>\(String(repeating: "x", count: 200))</title>")
        #expect(long?.count == HTMLTitle.maximumLength && long?.hasSuffix("…") == true)
    }

    @Test func probeSummaries() {
        #expect(ProbeResult.up(status: 200, title: "My App", redirect: nil).summary == "Up · 200 · My App")
        #expect(ProbeResult.up(status: 404, title: nil, redirect: nil).summary == "Up · 404")
        #expect(ProbeResult.up(status: 302, title: "x", redirect: "/login").summary == "Up · 302 · redirects to /login")
        #expect(ProbeResult.nothingListening.summary == "Nothing listening")
        #expect(ProbeResult.noAnswer.summary == "No answer")
        #expect(PortProbe.shortened("http://127.0.0.1:3000/login", host: "127.0.0.1", port: 3000) == "/login")
        #expect(PortProbe.shortened("https://sso.example/x", host: "127.0.0.1", port: 3000) == "https://sso.example/x")
    }
}

/// A prober that answers from a table, and can hold its answers until released.
final class FakeProber: PortProbing, @unchecked Sendable {
    let answers: [Int: ProbeResult]
    private let gate = AsyncStream<Void>.makeStream()
    let held: Bool

    init(_ answers: [Int: ProbeResult], held: Bool = false) { (self.answers, self.held) = (answers, held) }

    func release() { gate.continuation.finish() }

    func probe(host: String, port: Int) async -> ProbeResult {
        if held { for await _ in gate.stream {} }
        return answers[port] ?? .nothingListening
    }
}

@MainActor
struct PreviewProbeBoardTests {
    @Test func everyPortIsCheckingThenAnswered() async {
        let board = PreviewProbeBoard(prober: FakeProber([3000: .up(status: 200, title: "App", redirect: nil), 5678: .noAnswer]))
        var seen: [[Int: ProbeResult]] = []
        board.changes.add(owner: board) { seen.append(board.results) }
        await board.refresh(host: "127.0.0.1", ports: [3000, 5678, 8080])
        #expect(seen.first == [3000: .checking, 5678: .checking, 8080: .checking])
        #expect(board.results == [3000: .up(status: 200, title: "App", redirect: nil), 5678: .noAnswer, 8080: .nothingListening])
        #expect(!board.isProbing)
        #expect(board.summary(of: [3000, 5678, 8080]) == "1 of 3 dev servers answer")
    }

    @Test func aLaterRefreshWins() async {
        let slow = FakeProber([3000: .up(status: 500, title: nil, redirect: nil)], held: true)
        let board = PreviewProbeBoard(prober: slow)
        let first = Task { await board.refresh(host: "old.local", ports: [3000]) }
        while board.results[3000] != .checking { await Task.yield() }
        board.clear()
        slow.release()
        await first.value
        #expect(board.results.isEmpty, "the stale answer was dropped")
        #expect(board.summary(of: [3000]) == "")
    }

    @Test func noneUp() async {
        let board = PreviewProbeBoard(prober: FakeProber([:]))
        await board.refresh(host: "127.0.0.1", ports: [3000, 5000])
        #expect(board.summary(of: [3000, 5000]) == "No dev server answers")
    }
}
