import Foundation
import Testing

@testable import BuilderOSKit

/// The cache of the first frame's fonts: what is written reads back, anything else reads as none.
struct StartFontsTests {
    static let sample = StartFonts(
        context: "2 3 1 0 96 en-us", fonts: ["Cantarell,Inter,sans-serif 15px", "Cantarell,Inter,sans-serif Bold 15px", "Monospace 13px"],
        characters: ["Hello wrd, Jarvis ¿é€", "", "let x = 1"])

    @Test func whatIsWrittenReadsBack() throws {
        #expect(StartFonts(text: Self.sample.text) == Self.sample)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("start-fonts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("builderos-desktop/start-fonts").path
        #expect(StartFonts.read(from: path) == nil)
        try Self.sample.write(to: path)
        #expect(StartFonts.read(from: path) == Self.sample)
        let attributes = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func mergingKeepsTheFirstSettingsAndJoinsEachFontsCharacters() {
        let german = StartFonts(
            context: "2 3 1 0 96 de-de", fonts: ["Monospace 13px", "Sans Italic 15px"], characters: ["let ü = 1", "Grüße"])
        let merged = Self.sample.merged(with: german)
        #expect(merged.context == Self.sample.context)
        #expect(merged.fonts == Self.sample.fonts + ["Sans Italic 15px"])
        #expect(merged.characters == ["Hello wrd, Jarvis ¿é€", "", "let x = 1ü", "Grüße"])
        #expect(Self.sample.merged(with: Self.sample) == Self.sample)
    }

    @Test func theLanguageIsTheSettingsLinesLastField() {
        #expect(Self.sample.setting(language: "de-de").context == "2 3 1 0 96 de-de")
        #expect(Self.sample.setting(language: "de-de").fonts == Self.sample.fonts)
        #expect(Self.sample.setting(language: "").context == Self.sample.context, "no language: the line stays")
    }

    /// The shipped seed (`data/start-fonts-seed`) reads as a cache, for the language asked.
    @Test func theShippedSeedReads() throws {
        let path = SourceTree.root.appendingPathComponent("data/\(StartFonts.seedFile)").path
        let seed = try #require(StartFonts.seed(language: "es-es", path: path))
        #expect(seed.context.hasSuffix(" es-es") && seed.context.split(separator: " ").count == 6)
        #expect(seed.fonts.count >= 3 && seed.characters.allSatisfy { !$0.isEmpty })
        #expect(StartFonts.seed(language: "c", path: path + ".missing") == nil)
    }

    @Test func repeatsAreDroppedAndTheListIsCapped() {
        let many = (0..<100).map { "Sans \($0)px" }
        let fonts = StartFonts(context: "x", fonts: ["Sans 15px", "Sans 15px"] + many, characters: ["ab", "cd"] + many.map { _ in "e" })
        #expect(fonts.fonts.count == StartFonts.limit && fonts.characters.count == StartFonts.limit)
        #expect(fonts.fonts.prefix(2) == ["Sans 15px", "Sans 0px"])
        #expect(fonts.characters.prefix(2) == ["ab", "e"])
    }

    @Test(arguments: [
        "",  // empty file
        "2 3 1 0 96 c\nSans 15px\nab\n",  // no header
        "builderos-start-fonts 1\n2 3 1 0 96 c\nSans 15px\n",  // the first version (no characters)
        "builderos-start-fonts 2\n",  // no settings line
        "builderos-start-fonts 2\n2 3 1 0 96 c\nSans 15px\n",  // a font without its characters line
        "builderos-start-fonts 2\n2 3 1 0 96 c\nSans\u{1B}[31m 15px\nab\n",  // a control character
        "builderos-start-fonts 2\n2 3 1 0 96 c\nSans 15px\na\u{7}b\n",  // a control character among the characters
        "builderos-start-fonts 2\n2 3 1 0 96 c\n\nab\n",  // an empty font line
        "builderos-start-fonts 2\n2 3 1 0 96 c\n" + String(repeating: "A", count: 300) + "\nab\n",  // too long a font line
        "builderos-start-fonts 2\n2 3 1 0 96 c\nSans 15px\n" + String(repeating: "A", count: 1100) + "\n",  // too many characters
        "builderos-start-fonts 2\n2 3 1 0 96 c\n" + (0..<40).map { "Sans \($0)px\nab" }.joined(separator: "\n") + "\n",  // too many fonts
    ])
    func anythingElseReadsAsNone(text: String) {
        #expect(StartFonts(text: text) == nil)
    }

    @Test func aFileThatIsNotTextReadsAsNone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("start-fonts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([0xFF, 0xFE, 0x00, 0x80]).write(to: URL(fileURLWithPath: path))
        #expect(StartFonts.read(from: path) == nil)
    }

    @Test func itLivesInTheCacheFolder() {
        #expect(StartFonts.defaultPath(environment: ["XDG_CACHE_HOME": "/tmp/c"]) == "/tmp/c/builderos-desktop/start-fonts")
        #expect(StartFonts.defaultPath(environment: ["XDG_CACHE_HOME": ""]).hasSuffix("/.cache/builderos-desktop/start-fonts"))
    }
}
