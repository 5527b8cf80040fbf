import Testing

@testable import BuilderOSKit

/// What a typed or pasted address must become: a normalised base URL (with its transport), or a
/// specific refusal.
struct ServerAddressTests {
    enum Expected: Sendable {
        case ok(String, ServerAddress.Transport)
        case refused(ServerAddressProblem)
    }

    static let cases: [(String, Expected)] = [
        // Normalisation
        ("https://builderos.example.com", .ok("https://builderos.example.com", .encrypted)),
        ("https://builderos.example.com/", .ok("https://builderos.example.com", .encrypted)),
        ("https://builderos.example.com///", .ok("https://builderos.example.com", .encrypted)),
        ("  https://builderos.example.com  ", .ok("https://builderos.example.com", .encrypted)),
        ("\thttps://builderos.example.com\n", .ok("https://builderos.example.com", .encrypted)),
        // Unicode's white space around a paste (no-break, ideographic, line separator) goes too.
        ("\u{00A0}https://builderos.example.com\u{3000}\u{2028}", .ok("https://builderos.example.com", .encrypted)),
        ("\r\n\u{0085}", .refused(.empty)),
        ("HTTPS://BuilderOS.Example.COM", .ok("https://builderos.example.com", .encrypted)),
        ("builderos.example.com", .ok("https://builderos.example.com", .encrypted)),
        ("builderos.example.com:8443", .ok("https://builderos.example.com:8443", .encrypted)),
        ("https://abc-def.trycloudflare.com", .ok("https://abc-def.trycloudflare.com", .encrypted)),
        ("https://builderos.example.com/api/status", .ok("https://builderos.example.com", .encrypted)),
        ("https://builderos.example.com/api", .ok("https://builderos.example.com", .encrypted)),
        ("https://builderos.example.com/api/claude/ws", .ok("https://builderos.example.com", .encrypted)),
        ("https://example.com/builderos/", .ok("https://example.com/builderos", .encrypted)),
        ("https://example.com/builderos/api/health", .ok("https://example.com/builderos", .encrypted)),
        ("https://example.com/apiary", .ok("https://example.com/apiary", .encrypted)),
        ("wss://builderos.example.com", .ok("https://builderos.example.com", .encrypted)),
        ("https://builderos.example.com.", .ok("https://builderos.example.com", .encrypted)),
        ("https://[2001:db8::1]:8443", .ok("https://[2001:db8::1]:8443", .encrypted)),
        // Plain HTTP: loopback silently
        ("http://localhost:8080", .ok("http://localhost:8080", .loopback)),
        ("http://127.0.0.1:8080/", .ok("http://127.0.0.1:8080", .loopback)),
        ("http://127.1.2.3", .ok("http://127.1.2.3", .loopback)),
        ("http://[::1]:8080", .ok("http://[::1]:8080", .loopback)),
        ("ws://localhost:8080", .ok("http://localhost:8080", .loopback)),
        // Plain HTTP: private and VPN ranges with a warning
        ("http://10.0.0.5:8080", .ok("http://10.0.0.5:8080", .privateNetwork)),
        ("http://172.16.0.1:8080", .ok("http://172.16.0.1:8080", .privateNetwork)),
        ("http://172.31.255.254", .ok("http://172.31.255.254", .privateNetwork)),
        ("http://192.168.1.20:8080", .ok("http://192.168.1.20:8080", .privateNetwork)),
        ("http://100.64.0.1:8080", .ok("http://100.64.0.1:8080", .privateNetwork)),
        ("http://100.101.102.103:8080", .ok("http://100.101.102.103:8080", .privateNetwork)),
        ("http://100.127.255.255", .ok("http://100.127.255.255", .privateNetwork)),
        ("http://mac-mini.local:8080", .ok("http://mac-mini.local:8080", .privateNetwork)),
        ("http://mac-mini.tail1234.ts.net:8080", .ok("http://mac-mini.tail1234.ts.net:8080", .privateNetwork)),
        ("http://[fd12:3456::1]:8080", .ok("http://[fd12:3456::1]:8080", .privateNetwork)),
        // Plain HTTP elsewhere: needs confirmation
        ("http://builderos.example.com", .ok("http://builderos.example.com", .publicNetwork)),
        ("http://172.32.0.1", .ok("http://172.32.0.1", .publicNetwork)),
        ("http://100.128.0.1", .ok("http://100.128.0.1", .publicNetwork)),
        ("http://8.8.8.8:8080", .ok("http://8.8.8.8:8080", .publicNetwork)),
        ("http://192.169.0.1", .ok("http://192.169.0.1", .publicNetwork)),
        // Refusals
        ("", .refused(.empty)),
        ("   ", .refused(.empty)),
        ("https://builder os.example.com", .refused(.containsSpaces)),
        ("https://example.com/my server", .refused(.containsSpaces)),
        ("ftp://example.com", .refused(.unsupportedScheme("ftp"))),
        ("file:///etc/passwd", .refused(.unsupportedScheme("file"))),
        ("mailto:me@example.com", .refused(.unsupportedScheme("mailto"))),
        ("javascript:alert(1)", .refused(.unsupportedScheme("javascript"))),
        ("https://user:pass@example.com", .refused(.containsUserInfo)),
        ("https://user@example.com", .refused(.containsUserInfo)),
        ("https://example.com/#section", .refused(.containsFragment)),
        ("https://example.com/?key=abc", .refused(.containsQuery)),
        ("https://", .refused(.missingHost)),
        ("https:///api/status", .refused(.missingHost)),
        ("https://:8080", .refused(.missingHost)),
        ("https://exa_mple!.com", .refused(.invalidHost)),
        ("https://exa$mple.com", .refused(.invalidHost)),
        ("https://example..com", .refused(.invalidHost)),
        ("https://-example.com", .refused(.invalidHost)),
        ("https://[::1", .refused(.invalidHost)),
        ("https://[zz::1]", .refused(.invalidHost)),
        ("https://example.com:0", .refused(.invalidPort)),
        ("https://example.com:65536", .refused(.invalidPort)),
        ("https://example.com:80a", .refused(.invalidPort)),
        ("https://example.com:-1", .refused(.invalidPort)),
        ("https://example.com:", .refused(.invalidPort)),
        ("https://example.com:8080:9090", .refused(.invalidHost)),
        // Control characters and length
        ("http://127.0.0.1:8080/a\u{1B}]0;x\u{07}", .refused(.containsControlCharacters)),
        ("https://example.com/\u{0}", .refused(.containsControlCharacters)),
        ("https://example.com/\u{9B}2J", .refused(.containsControlCharacters)),
        ("https://example.com/\u{202E}moc", .refused(.containsControlCharacters)),
        ("https://example.com/" + String(repeating: "a", count: 2100), .refused(.tooLong)),
        // Internationalised names: stored in their ASCII form
        ("https://bücher.example", .ok("https://xn--bcher-kva.example", .encrypted)),
        ("https://xn--80aa0cbo65f.com", .ok("https://xn--80aa0cbo65f.com", .encrypted)),
    ]

    @Test("there are at least 60 cases") func enoughCases() {
        #expect(Self.cases.count >= 60)
    }

    @Test(arguments: cases) func verdict(input: String, expected: Expected) {
        switch expected {
        case .ok(let base, let transport):
            let address = try? ServerAddress.parse(input)
            #expect(address?.baseURL == base, "input: \(input)")
            #expect(address?.transport == transport, "input: \(input)")
        case .refused(let problem):
            #expect(throws: problem) { try ServerAddress.parse(input) }
        }
    }

    @Test func confirmationOnlyForPublicPlainHTTP() throws {
        #expect(try ServerAddress.parse("http://builderos.example.com").requiresConfirmation)
        #expect(try !ServerAddress.parse("http://192.168.1.2").requiresConfirmation)
        #expect(try ServerAddress.parse("http://192.168.1.2").transportWarning != nil)
        #expect(try ServerAddress.parse("http://localhost").transportWarning == nil)
        #expect(try ServerAddress.parse("https://example.com").transportWarning == nil)
    }

    @Test func buildsRESTAndWebSocketURLs() throws {
        let tls = try ServerAddress.parse("https://b.example.com/base/")
        #expect(tls.url(path: "/api/status") == "https://b.example.com/base/api/status")
        #expect(tls.webSocketURL(path: "/api/claude/ws") == "wss://b.example.com/base/api/claude/ws")
        let plain = try ServerAddress.parse("http://100.64.1.2:8080")
        #expect(plain.webSocketURL(path: "/api/codex/ws") == "ws://100.64.1.2:8080/api/codex/ws")
    }

    /// A look-alike name is shown with its ASCII form beside it, wherever the address is shown.
    @Test func internationalisedHostsAreShownWithTheirASCIIForm() throws {
        let lookAlike = try ServerAddress.parse("https://xn--80aa0cbo65f.com:8443")
        #expect(lookAlike.baseURL == "https://xn--80aa0cbo65f.com:8443")
        #expect(lookAlike.unicodeHost != nil && lookAlike.unicodeHost != lookAlike.host)
        #expect(lookAlike.displayURL == "https://\(lookAlike.unicodeHost!):8443 (xn--80aa0cbo65f.com)")
        let typed = try ServerAddress.parse("bücher.example")
        #expect(typed.displayURL == "https://bücher.example (xn--bcher-kva.example)")
        let plain = try ServerAddress.parse("https://builderos.example.com")
        #expect(plain.unicodeHost == nil && plain.displayURL == plain.baseURL)
    }

    @Test func everyProblemHasASentence() {
        let problems: [ServerAddressProblem] = [
            .empty, .containsSpaces, .unsupportedScheme("ftp"), .containsUserInfo,
            .containsFragment, .containsQuery, .missingHost, .invalidHost, .invalidPort,
            .containsControlCharacters, .tooLong,
        ]
        for problem in problems {
            #expect(problem.message.hasSuffix("."))
            #expect(problem.message.count > 15)
        }
    }
}
