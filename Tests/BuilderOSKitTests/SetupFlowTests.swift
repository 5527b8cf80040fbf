import Foundation
import Testing

@testable import BuilderOSKit

/// The wizard's rules, without GTK.
struct SetupFlowTests {
    static func flowAtTheTestStep() -> SetupFlow {
        var flow = SetupFlow(step: .server, serverText: "https://x.example.com")
        flow.advance()
        flow.keyText = "key-12345678"
        flow.advance()
        return flow
    }

    @Test func walksForwardOnlyWhenEachStepAllows() {
        var flow = SetupFlow()
        #expect(flow.step == .welcome && flow.canContinue)
        flow.advance()
        #expect(flow.step == .server && !flow.canContinue)
        flow.serverText = "https://my server"
        #expect(flow.advance() == .invalid(.containsSpaces))
        #expect(flow.step == .server)
        flow.serverText = "  https://builderos.example.com/api/status  "
        #expect(flow.advance() == .proceed)
        #expect(flow.step == .apiKey)
        #expect(flow.serverText == "https://builderos.example.com", "the normalised address is what the user sees on return")
        #expect(!flow.canContinue)
        flow.keyText = "  key-12345678\n"
        flow.advance()
        #expect(flow.step == .test && flow.keyText == "key-12345678")
        #expect(!flow.canContinue, "the test step waits for the key to be stored")
        flow.advance()
        #expect(flow.step == .test)
    }

    @Test func plainHTTPOverTheInternetNeedsConsentOnce() throws {
        var flow = SetupFlow(step: .server, serverText: "http://203.0.113.7:8080")
        guard case .needsConsent = flow.advance() else { Issue.record("no consent asked"); return }
        #expect(flow.step == .server)
        flow.consentToPlainHTTP()
        #expect(flow.advance() == .proceed && flow.step == .apiKey)
        // Loopback and private addresses need none.
        for address in ["http://127.0.0.1:8080", "http://192.168.1.20:8080", "http://100.64.1.2"] {
            var other = SetupFlow(step: .server, serverText: address)
            #expect(other.advance() == .proceed, "\(address)")
        }
    }

    @Test func failuresPointBackToWhereTheyCanBeFixed() {
        var flow = Self.flowAtTheTestStep()
        var report = ConnectionReport()
        report.outcomes = [
            .reachability: .passed(detail: ""), .key: .failed(.unauthorized),
            .versionAndLatency: .skipped, .systemFeatures: .skipped,
        ]
        flow.finishTest(report)
        #expect(flow.failedCheck?.error == .unauthorized)
        #expect(flow.stepToFix == .apiKey)
        #expect(flow.checks[.storingKey] == .skipped)
        #expect(!flow.retryStoresOnly && !flow.isStored)
        flow.go(backTo: .apiKey)
        #expect(flow.step == .apiKey && flow.checks.isEmpty, "leaving the test forgets its results")
    }

    /// A certificate an extra authority could vouch for (self-signed, an unknown authority) offers to choose one;
    /// another name or an expired certificate does not: trusting more would not fix them.
    @Test func anUntrustedCertificateOffersToTrustAnAuthority() {
        for (problem, offered) in [
            (TLSProblem.selfSigned, true), (.untrustedIssuer, true), (.otherName(host: "a", certificateNames: ["b"]), false), (.expired, false),
        ] {
            var flow = Self.flowAtTheTestStep()
            var report = ConnectionReport()
            report.outcomes = [
                .reachability: .failed(.tlsFailure(problem)), .key: .skipped, .versionAndLatency: .skipped, .systemFeatures: .skipped,
            ]
            flow.finishTest(report)
            #expect(flow.offersAuthority == offered, "\(problem)")
        }
    }

    @Test func aStoringFailureRetriesOnlyTheStoring() {
        var flow = Self.flowAtTheTestStep()
        var report = ConnectionReport()
        for step in ConnectionTestStep.allCases { report.outcomes[step] = .passed(detail: "") }
        flow.finishTest(report)
        flow.record(.storingKey, .failed(.secretServiceUnavailable))
        #expect(flow.retryStoresOnly)
        #expect(flow.failedCheck?.check == .storingKey)
        flow.markStored()
        #expect(flow.canContinue)
        flow.advance()
        #expect(flow.step == .done)
        flow.goBack()
        #expect(flow.step == .done, "there is no way back from done")
    }

    @Test func settingsWithoutAppearanceStillLoad() throws {
        let old = Data(#"{"server_url":"https://x.example.com","device_id":"desktop-1"}"#.utf8)
        let settings = try JSONDecoder().decode(AppSettings.self, from: old)
        #expect(settings.appearance == .automatic && settings.deviceID == "desktop-1")
        let unknown = Data(#"{"appearance":"sepia"}"#.utf8)
        #expect(try JSONDecoder().decode(AppSettings.self, from: unknown).appearance == .automatic)
        #expect(Appearance.automatic.theme(desktopPrefersDark: true) == .dark)
        #expect(Appearance.light.theme(desktopPrefersDark: true) == .light)
        #expect(DesktopColorScheme(portalValue: 1) == .preferDark && DesktopColorScheme(portalValue: 7) == .noPreference)
    }
}
