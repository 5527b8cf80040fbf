import Foundation

/// The design tokens of `data/design-tokens.json`: the one place colours, type, spacing, radii and
/// motion are defined. `StyleSheetGenerator` turns them into GTK CSS.
public struct DesignTokens: Decodable, Sendable {
    public enum Theme: String, Sendable, CaseIterable { case light, dark }

    public struct ColorToken: Decodable, Sendable {
        public var light: String
        public var dark: String
        public var source: String?
        /// Why the value differs from the design document, where it does.
        public var decision: String?
        public func value(_ theme: Theme) -> String { theme == .light ? light : dark }
    }

    public struct TextStyle: Decodable, Sendable {
        public var size: Double
        public var weight: Int
        public var lineHeight: Double
        public var family: String?

        enum CodingKeys: String, CodingKey { case size, weight, lineHeight = "line-height", family }

        /// WCAG "large text": at least 24 px, or 18.66 px (14 pt) bold.
        public var isLargeText: Bool { size >= 24 || (size >= 18.66 && weight >= 700) }
    }

    public struct Typography: Decodable, Sendable {
        public var families: [String: String]
        public var styles: [String: TextStyle]
    }

    public struct Durations: Decodable, Sendable {
        public var values: [String: Int]
    }

    /// A styled element: which colours, type style, radius and padding it uses.
    public struct Component: Decodable, Sendable {
        public var background: String
        public var color: String
        public var text: String
        public var radius: String?
        public var padding: [String]?
        /// A second colour: the background becomes a diagonal gradient from `background` to it.
        public var gradientTo: String?

        enum CodingKeys: String, CodingKey { case background, color, text, radius, padding, gradientTo = "gradient-to" }
    }

    public var colors: [String: ColorToken]
    public var typography: Typography
    public var spacing: [String: Int]
    public var radii: [String: Int]
    public var durations: Durations
    public var components: [String: Component]

    public static func load(from url: URL) throws -> DesignTokens {
        try JSONDecoder().decode(DesignTokens.self, from: Data(contentsOf: url))
    }

    /// The token file: installed (`<prefix>/share/builderos-desktop/`) beside the executable, or
    /// the source tree's `data/` when run from the build folder.
    public static func defaultFile() -> URL? {
        let candidates = [
            SourceTree.installedShare.appendingPathComponent("builderos-desktop/design-tokens.json"),
            SourceTree.root.appendingPathComponent("data/design-tokens.json"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }
}
