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
