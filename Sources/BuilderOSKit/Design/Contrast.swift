import Foundation

/// WCAG 2.x contrast: relative luminance and contrast ratio of opaque sRGB colours.
public enum Contrast {
    /// AA minimums: 4.5:1 for normal text, 3:1 for large text and user-interface parts.
    public static let normalText = 4.5
    public static let largeText = 3.0

    /// Parses `#RRGGBB`; nil for anything else (translucent colours have no fixed contrast).
    public static func rgb(_ hex: String) -> (Double, Double, Double)? {
        guard hex.hasPrefix("#"), hex.count == 7, let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        return (Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255)
    }

    public static func luminance(_ hex: String) -> Double? {
        guard let (r, g, b) = rgb(hex) else { return nil }
        func linear(_ c: Double) -> Double { c <= 0.039_28 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    public static func ratio(_ a: String, _ b: String) -> Double? {
        guard let la = luminance(a), let lb = luminance(b) else { return nil }
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}
