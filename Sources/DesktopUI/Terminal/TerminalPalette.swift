import BuilderOSKit

/// The terminal's colours in the app's light and dark themes: text and background from the design
/// tokens, and a 16-colour palette whose blue, green, red and yellow are the tokens' (the rest chosen
/// to read on the same background).
enum TerminalPalette {
    static func colors(_ theme: DesignTokens.Theme, tokens: DesignTokens?) -> (foreground: String, background: String, palette: [String]) {
        func token(_ name: String, _ fallback: String) -> String { tokens?.colors[name]?.value(theme) ?? fallback }
        switch theme {
        case .light:
            return (
                token("text", "#1C1C1E"), token("background", "#FFFFFF"),
                [
                    "#1C1C1E", token("destructive-text", "#C0392B"), token("success-text", "#1B7A34"), "#8A6A00",
                    token("accent-text", "#0062CC"), "#8E44AD", "#00796B", "#D1D1D6",
                    "#636366", "#E0443A", "#28A745", "#B08900", "#3A8DFF", "#A25DC7", "#1AA39A", "#FFFFFF",
                ]
            )
        case .dark:
            return (
                token("text", "#F2F2F7"), token("background", "#000000"),
                [
                    "#1C1C1E", token("destructive-text", "#FF6961"), token("success-text", "#30D158"), "#FFD60A",
                    token("accent-text", "#409CFF"), "#BF5AF2", "#64D2FF", "#D1D1D6",
                    "#636366", "#FF8A80", "#6EE7A0", "#FFE066", "#70B5FF", "#D597F7", "#9AE6FF", "#FFFFFF",
                ]
            )
        }
    }
}
