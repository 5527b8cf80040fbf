import BuilderOSKit
import Foundation

/// `--only start-fonts-seed`: the fonts and characters of a first start's first frame, in each of the
/// app's languages, joined into the seed a first start loads while GTK starts (`StartFonts.seed`).
enum StartFontsSeed {
    /// The languages the app speaks: its source language and those `po/LINGUAS` names.
    static func languages() -> [String] {
        let linguas = (try? String(contentsOf: SourceTree.root.appendingPathComponent("po/LINGUAS"), encoding: .utf8)) ?? ""
        return ["C"] + linguas.split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// Joins what `firstStart` returns for each language (its first frame's kept fonts), then the
    /// fonts of the seed at `joining` (another display's: text GTK's theme does not size follows the
    /// display's default font), and writes it to `path`.
    static func write(to path: String, joining: String?, firstStart: (String) throws -> StartFonts?) throws {
        var seed: StartFonts?
        for language in languages() {
            guard let fonts = try firstStart(language) else { throw POSIXError(.ENOENT) }
            print("  \(language): \(fonts.fonts.count) fonts")
            seed = seed.map { $0.merged(with: fonts) } ?? fonts
        }
        if let joining {
            guard let other = StartFonts.read(from: joining) else { throw POSIXError(.ENOENT) }
            seed = seed?.merged(with: other)
        }
        try seed?.write(to: path)
    }
}
