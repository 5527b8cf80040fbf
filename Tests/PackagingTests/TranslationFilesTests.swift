import Foundation
import ProcessHarness
import Testing

/// gettext's inputs and outputs stay complete: every source file that marks strings is in po/POTFILES (and fills
/// them with `L(_:_:)`, not `String(format:)`), German and
/// Spanish translate every message of a freshly extracted template (no untranslated, no fuzzy, valid formats), and
/// the desktop entry and metainfo come out translated through `msgfmt --desktop/--xml`.
struct TranslationFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("meson-helpers/update-pot").path

    @Test func potfilesListsEveryFileThatMarksStrings() async throws {
        let result = try await CLISandbox().run([Self.script, "--check"], executable: "/bin/bash")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func germanAndSpanishAreComplete() async throws {
        let result = try await CLISandbox().run([Self.script, "--verify"], executable: "/bin/bash")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for language in ["de", "es"] {
            #expect(
                result.stdout.contains("\(language): ") && !result.stdout.contains("untranslated") && !result.stdout.contains("fuzzy"),
                "\(result.stdout)")
        }
    }

    @Test func countsUsePluralForms() throws {
        let template = try String(contentsOf: Self.root.appendingPathComponent("po/builderos-desktop.pot"), encoding: .utf8)
        for singular in ["%d capsule", "%d day", "%d hour", "%d minute", "Every second", "Every minute"] {
            #expect(template.contains("msgid \"\(singular)\"\nmsgid_plural"), "\(singular) has a plural form")
        }
        let german = try String(contentsOf: Self.root.appendingPathComponent("po/de.po"), encoding: .utf8)
        #expect(german.contains("msgstr[1] \"%d Kapseln\""))
    }

    /// `msgfmt --desktop` or `--xml` of a data file with every translation; the merged file and its text.
    static func merge(_ mode: String, _ file: String, in sandbox: CLISandbox) async throws -> (URL, String) {
        let output = sandbox.root.appendingPathComponent(file)
        let merged = try await sandbox.run(
            [
                mode, "--template", root.appendingPathComponent("data/" + file).path,
                "-d", root.appendingPathComponent("po").path, "-o", output.path,
            ], executable: "/usr/bin/msgfmt")
        #expect(merged.status == 0, "\(merged.stderr)")
        return (output, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    @Test func desktopEntryIsTranslatedThroughMsgfmt() async throws {
        let sandbox = try CLISandbox()
        let (output, text) = try await Self.merge("--desktop", "app.builderos.Desktop.desktop", in: sandbox)
        #expect(text.contains("Comment[de]=Mit Jarvis und Codex chatten") && text.contains("Comment[es]=Chatee con Jarvis y Codex"))
        #expect(
            text.contains("GenericName[de]=BuilderOS-Begleit-App") && text.contains("Keywords[es]=builderos;jarvis;codex;chat;servidor;cápsulas;"))
        let validated = try await sandbox.run([output.path], executable: "/usr/bin/desktop-file-validate")
        #expect(validated.status == 0 && !validated.stdout.contains("error"), "\(validated.stdout)")
    }

    @Test func metainfoIsTranslatedThroughMsgfmt() async throws {
        let sandbox = try CLISandbox()
        let (output, text) = try await Self.merge("--xml", "app.builderos.Desktop.metainfo.xml", in: sandbox)
        #expect(text.contains("<summary xml:lang=\"de\">Begleit-App für Ihren BuilderOS-Server</summary>"))
        #expect(text.contains("xml:lang=\"es\""))
        let validated = try await sandbox.run(["validate", "--pedantic", "--no-net", output.path], executable: "/usr/bin/appstreamcli")
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
    }
}
