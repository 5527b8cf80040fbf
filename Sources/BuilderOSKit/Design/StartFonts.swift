import Foundation

/// The fonts the main window's first frame used and the text settings GTK laid them out with,
/// kept for the next start: there they are loaded on a thread of their own while GTK starts
/// (`GtkKit/FontPreload`), before the first frame needs them. GTK's text settings come from the
/// desktop and are only known once GTK has started, so they cannot be worked out in advance.
///
/// A cache in `$XDG_CACHE_HOME/builderos-desktop/start-fonts`: losing it costs one start without the
/// head start; a file that does not read as one is ignored (and replaced after the next first frame).
public struct StartFonts: Equatable, Sendable {
    /// GTK's text settings, one line as `FontPreload.describe` wrote it (font options, resolution, language).
    public var context: String
    /// Pango font descriptions ("Cantarell,Inter,sans-serif Bold 15px"), without repeats.
    public var fonts: [String]
    /// The characters the first frame set in each font (same order; each once): the preload draws
    /// exactly these, so their glyphs are ready and no others are kept.
    public var characters: [String]

    /// At most this many fonts are kept: the main window uses about a dozen.
    public static let limit = 32
    static let header = "builderos-start-fonts 2"
    /// A longer line is not a font description (nor the settings line).
    static let longestLine = 256
    /// A font's characters: the frame's labels rarely set more than a few hundred different ones.
    static let longestCharacters = 1024

    public init(context: String, fonts: [String], characters: [String]) {
        self.context = context
        var seen = Set<String>()
        let pairs = zip(fonts, characters + Array(repeating: "", count: max(fonts.count - characters.count, 0)))
            .filter { Self.isLine($0.0) && Self.areCharacters($0.1) && seen.insert($0.0).inserted }
            .prefix(Self.limit)
        self.fonts = pairs.map(\.0)
        self.characters = pairs.map(\.1)
    }

    /// The file's text: a header, the settings line, then each font on a line and its characters on the next.
    public var text: String { ([Self.header, context] + zip(fonts, characters).flatMap { [$0, $1] }).joined(separator: "\n") + "\n" }

    /// Reads `text` as written by `text`; nil for anything else.
    public init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let pairs = lines.dropFirst(2)
        guard lines.count >= 2, pairs.count % 2 == 0, pairs.count <= 2 * Self.limit, lines[0] == Self.header, Self.isLine(lines[1]) else {
            return nil
        }
        let fonts = stride(from: 2, to: lines.count, by: 2).map { lines[$0] }
        let characters = stride(from: 3, to: lines.count, by: 2).map { lines[$0] }
        guard fonts.allSatisfy(Self.isLine), characters.allSatisfy(Self.areCharacters) else { return nil }
        self.init(context: lines[1], fonts: fonts, characters: characters)
    }

    private static func isLine(_ line: String) -> Bool {
        !line.isEmpty && line.utf8.count <= longestLine && !hasControl(line)
    }

    private static func areCharacters(_ line: String) -> Bool { line.utf8.count <= longestCharacters && !hasControl(line) }

    private static func hasControl(_ line: String) -> Bool { line.unicodeScalars.contains { $0.properties.generalCategory == .control } }

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        return (base as NSString).appendingPathComponent("builderos-desktop/start-fonts")
    }

    /// The kept fonts at `path`, or nil (none kept yet, unreadable, or not this format).
    public static func read(from path: String = defaultPath()) -> StartFonts? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024,
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return StartFonts(text: text)
    }

    /// The fonts to load when none are kept: those of a first start's first frame, shipped in
    /// `data/start-fonts-seed` (made by `meson-helpers/update-start-fonts-seed` from first starts
    /// in each of the app's languages) and set for `language`, the one GTK will lay text out in.
    /// The rest of the text settings are GTK's own defaults: on a desktop with others, GTK makes
    /// its fonts again for those, but reuses the font files the seed opened.
    public static func seed(language: String, path: String? = SourceTree.dataFile(seedFile)?.path) -> StartFonts? {
        path.flatMap { read(from: $0) }?.setting(language: language)
    }

    public static let seedFile = "start-fonts-seed"

    /// The same fonts and characters, with the settings line's language (its last field) replaced.
    public func setting(language: String) -> StartFonts {
        var fields = context.split(separator: " ").map(String.init)
        guard !fields.isEmpty, !language.isEmpty, !language.contains(" ") else { return self }
        fields[fields.count - 1] = language
        return StartFonts(context: fields.joined(separator: " "), fonts: fonts, characters: characters)
    }

    /// Both fonts' lists in one: `self`'s settings, its fonts first, each font's characters joined
    /// (each once, in the order first seen); the limits hold.
    public func merged(with other: StartFonts) -> StartFonts {
        var order = fonts
        var sets = Dictionary(zip(fonts, characters), uniquingKeysWith: { first, _ in first })
        for (font, more) in zip(other.fonts, other.characters) {
            guard let have = sets[font] else {
                order.append(font)
                sets[font] = more
                continue
            }
            var joined = have
            for character in more where !joined.contains(character) {
                guard joined.utf8.count + String(character).utf8.count <= Self.longestCharacters else { break }
                joined.append(character)
            }
            sets[font] = joined
        }
        return StartFonts(context: context, fonts: order, characters: order.map { sets[$0] ?? "" })
    }

    /// Replaces the file at `path` (its folder made private if new).
    public func write(to path: String = defaultPath()) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
