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

    /// At most this many fonts are kept: the main window uses about a dozen.
    public static let limit = 32
    static let header = "builderos-start-fonts 1"
    /// A longer line is not a font description (nor the settings line).
    static let longestLine = 256

    public init(context: String, fonts: [String]) {
        self.context = context
        var seen = Set<String>()
        self.fonts = Array(fonts.filter { Self.isLine($0) && seen.insert($0).inserted }.prefix(Self.limit))
    }

    /// The file's text: a header, the settings line, one font a line.
    public var text: String { ([Self.header, context] + fonts).joined(separator: "\n") + "\n" }

    /// Reads `text` as written by `text`; nil for anything else.
    public init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard lines.count >= 2, lines.count <= Self.limit + 2, lines[0] == Self.header,
            lines.dropFirst().allSatisfy(Self.isLine)
        else { return nil }
        self.init(context: lines[1], fonts: Array(lines.dropFirst(2)))
    }

    private static func isLine(_ line: String) -> Bool {
        !line.isEmpty && line.utf8.count <= longestLine && !line.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

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

    /// Replaces the file at `path` (its folder made private if new).
    public func write(to path: String = defaultPath()) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
