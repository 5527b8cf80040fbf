/// Turns the design tokens into GTK 4.8 CSS for one theme. GTK 4.8 has no `var()` or custom
/// properties: colours become `@define-color` names, everything else concrete values. The app
/// loads one theme's sheet into its single application-wide provider and swaps it on change.
public enum StyleSheetGenerator {
    /// Every class the generator emits is prefixed, so it never collides with GTK's own.
    public static let prefix = "bos-"

    public static func css(_ tokens: DesignTokens, theme: DesignTokens.Theme) -> String {
        var lines = ["/* Generated from data/design-tokens.json (\(theme.rawValue) theme). Do not edit. */", ""]
        for name in tokens.colors.keys.sorted() {
            lines.append("@define-color \(name) \(tokens.colors[name]!.value(theme));")
        }
        lines.append("")
        let sans = tokens.typography.families["sans"] ?? "sans-serif"
        lines.append("window.\(prefix)app { background-color: @background; color: @text; font-family: \(sans); }")
        for name in tokens.typography.styles.keys.sorted() {
            lines.append(".\(prefix)text-\(name) { \(font(tokens.typography.styles[name]!, tokens)) }")
        }
        for name in tokens.spacing.keys.sorted() {
            let v = tokens.spacing[name]!
            lines.append(".\(prefix)pad-\(name) { padding: \(v)px; }")
            lines.append(".\(prefix)gap-\(name) { border-spacing: \(v)px; }")
        }
        for name in tokens.radii.keys.sorted() {
            lines.append(".\(prefix)radius-\(name) { border-radius: \(tokens.radii[name]!)px; }")
        }
        for name in tokens.durations.values.keys.sorted() {
            lines.append(".\(prefix)motion-\(name) { transition-duration: \(tokens.durations.values[name]!)ms; }")
        }
        lines.append("")
        for name in tokens.components.keys.sorted() {
            lines.append(rule(for: name, tokens.components[name]!, tokens))
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    static func font(_ style: DesignTokens.TextStyle, _ tokens: DesignTokens) -> String {
        var parts = ["font-size: \(format(style.size))px;", "font-weight: \(style.weight);", "line-height: \(format(style.lineHeight));"]
        if let family = style.family, let value = tokens.typography.families[family] { parts.append("font-family: \(value);") }
        return parts.joined(separator: " ")
    }

    static func rule(for name: String, _ c: DesignTokens.Component, _ tokens: DesignTokens) -> String {
        var parts = ["background-color: @\(c.background);", "color: @\(c.color);"]
        if let style = tokens.typography.styles[c.text] { parts.append(font(style, tokens)) }
        if let radius = c.radius.flatMap({ tokens.radii[$0] }) { parts.append("border-radius: \(radius)px;") }
        if let padding = c.padding?.compactMap({ tokens.spacing[$0] }), !padding.isEmpty {
            parts.append("padding: " + padding.map { "\($0)px" }.joined(separator: " ") + ";")
        }
        return ".\(prefix)\(name) { \(parts.joined(separator: " ")) }"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
