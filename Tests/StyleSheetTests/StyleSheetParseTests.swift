import CGtk
import Foundation
import Testing

@testable import BuilderOSKit

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

    /// GTK's own theme, as the app loads it (`GtkThemeTrim`), from the GTK installed here. (That GTK
    /// parses it without errors needs a display: `desktop-ui-checks` sees it, `MainScenarios.pages`.)
    @Test(arguments: [false, true])
    func gtksThemeTrimmedKeepsItsColoursAndLosesTheAbsentWidgets(dark: Bool) throws {
        // GTK registers its resources as it starts, before it opens a display (so with or without one).
        StyleSheetParseTests.gtkLock.withLock { _ = gtk_init_check() }
        let path = "/org/gtk/libgtk/theme/Default/Default-\(dark ? "dark" : "light").css"
        let bytes = try #require(g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil), "GTK 4.8 ships \(path)")
        defer { g_bytes_unref(bytes) }
        var size = 0
        let source = String(decoding: UnsafeRawBufferPointer(start: g_bytes_get_data(bytes, &size), count: size), as: UTF8.self)
        let trimmed = GtkThemeTrim.css(source, baseURL: "resource:///org/gtk/libgtk/theme/Default")
        #expect(trimmed.utf8.count < source.utf8.count * 3 / 4, "\(trimmed.utf8.count) of \(source.utf8.count) bytes")
        let colours = { (css: String) in css.split(separator: "\n").filter { $0.hasPrefix("@define-color") }.count }
        #expect(colours(trimmed) == colours(source) && colours(source) > 0, "every named colour stays")
        for name in GtkThemeTrim.absentWidgets {
            #expect(GtkThemeTrim.statements(of: trimmed).allSatisfy { !$0.hasPrefix(name + " ") }, "no rule for \(name) is left")
        }
    }

    @Test func theParserReallyReportsErrors() {
        // GTK 4.8 has no var(): the check above would see it.
        #expect(parse(".x { color: var(--accent); }").count == 1)
    }
}

/// The stand-in for GTK's theme is compiled into C by hand (SwiftPM cannot run glib-compile-resources):
/// the committed file must be what its sources compile to.
struct GtkThemeStandInTests {
    @Test func theCommittedStandInIsCompiledFromItsSources() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("stand-in-\(UUID().uuidString).c")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let process = Process()
        process.executableURL = root.appendingPathComponent("meson-helpers/update-gtk-theme-stand-in")
        process.arguments = [fresh.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let committed = try Data(contentsOf: root.appendingPathComponent("Sources/CGtkTheme/bos_gtk_theme_stand_in_resource.c"))
        #expect(try Data(contentsOf: fresh) == committed, "run meson-helpers/update-gtk-theme-stand-in and commit the result")
    }
}
