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

    /// A named group of values with a note on where they come from (durations, sizes, opacities).
    public struct Scale<Value: Decodable & Sendable>: Decodable, Sendable {
        public var values: [String: Value]
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
    public var durations: Scale<Int>
    /// Borders, minimum heights, glyph sizes (px).
    public var sizes: Scale<Int>
    /// Windows, columns and controls the pages size in code (px).
    public var layout: Scale<Int>
    /// Text widths (characters).
    public var measures: Scale<Int>
    /// State tints and fades (0–1).
    public var opacity: Scale<Double>
    public var components: [String: Component]

    // Lookups by name. A name missing from the file is a programming error, caught by the tests
    // that generate the stylesheet from the shipped file (DesignTokenTests, StyleSheetTests).
    public func spacing(_ name: String) -> Int { Self.require(spacing[name], "spacing", name) }
    public func radius(_ name: String) -> Int { Self.require(radii[name], "radii", name) }
    public func duration(_ name: String) -> Int { Self.require(durations.values[name], "durations", name) }
    public func size(_ name: String) -> Int { Self.require(sizes.values[name], "sizes", name) }
    public func layout(_ name: String) -> Int { Self.require(layout.values[name], "layout", name) }
    public func measure(_ name: String) -> Int { Self.require(measures.values[name], "measures", name) }
    public func opacity(_ name: String) -> Double { Self.require(opacity.values[name], "opacity", name) }
    public func family(_ name: String) -> String { Self.require(typography.families[name], "typography.families", name) }

    private static func require<T>(_ value: T?, _ group: String, _ name: String) -> T {
        guard let value else { preconditionFailure("data/design-tokens.json has no \(group).\(name)") }
        return value
    }

    /// The shipped tokens, read once (nil when the file is missing: the app then runs unstyled).
    public static let shipped: DesignTokens? = defaultFile().flatMap { try? load(from: $0) }

    public static func load(from url: URL) throws -> DesignTokens {
        try JSONDecoder().decode(DesignTokens.self, from: Data(contentsOf: url))
    }

    /// The token file: installed (`<prefix>/share/builderos-desktop/`) beside the executable, or
    /// the source tree's `data/` when run from the build folder.
    public static func defaultFile() -> URL? { SourceTree.dataFile("design-tokens.json") }
}
