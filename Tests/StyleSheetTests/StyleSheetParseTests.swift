import BuilderOSKit
import CGtk
import Foundation
import Testing

/// GTK 4.8 itself parses both generated stylesheets and reports no `parsing-error`.
///
/// GTK is not thread-safe, and Swift Testing runs test cases in parallel on its worker threads:
/// two parses at once crashed inside libgtk on CI. The suite is serialized, and every parse also
/// holds one process-wide lock so no other suite can enter GTK at the same time.
@Suite(.serialized)
struct StyleSheetParseTests {
    static let gtkLock = NSLock()

    final class ErrorLog: @unchecked Sendable {
        var messages: [String] = []
    }

    func parse(_ css: String) -> [String] {
        Self.gtkLock.lock()
        defer { Self.gtkLock.unlock() }
        let provider = gtk_css_provider_new()
        defer { g_object_unref(provider) }
        let log = ErrorLog()
        let onError: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void = {
            _, _, error, user in
            let log = Unmanaged<ErrorLog>.fromOpaque(user!).takeUnretainedValue()
            log.messages.append(error.map { String(cString: $0.pointee.message) } ?? "?")
        }
        let user = Unmanaged.passRetained(log).toOpaque()
        g_signal_connect_data(
            provider, "parsing-error", unsafeBitCast(onError, to: GCallback.self), user,
            { user, _ in Unmanaged<ErrorLog>.fromOpaque(user!).release() }, GConnectFlags(rawValue: 0))
        gtk_css_provider_load_from_data(provider, css, -1)
        return log.messages
    }

    @Test(arguments: DesignTokens.Theme.allCases)
    func generatedCSSParsesWithoutErrors(theme: DesignTokens.Theme) throws {
        let tokens = try DesignTokens.load(from: try #require(DesignTokens.defaultFile()))
        let errors = parse(StyleSheetGenerator.css(tokens, theme: theme))
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func theParserReallyReportsErrors() {
        // GTK 4.8 has no var(): the check above would see it.
        #expect(parse(".x { color: var(--accent); }").count == 1)
    }
}
