/// The user's appearance preference. `automatic` follows the desktop's dark-style preference.
public enum Appearance: String, Codable, Sendable, CaseIterable {
    case automatic, light, dark

    public var title: String {
        switch self {
        case .automatic: return L("Automatic")
        case .light: return L("Light")
        case .dark: return L("Dark")
        }
    }

    /// The theme to draw, given whether the desktop currently prefers dark.
    public func theme(desktopPrefersDark: Bool) -> DesignTokens.Theme {
        switch self {
        case .automatic: return desktopPrefersDark ? .dark : .light
        case .light: return .light
        case .dark: return .dark
        }
    }
}

/// The desktop's colour-scheme preference as the Settings portal reports it
/// (`org.freedesktop.appearance` `color-scheme`: 0 no preference, 1 prefer dark, 2 prefer light).
public enum DesktopColorScheme: Sendable, Equatable {
    case noPreference, preferDark, preferLight

    public init(portalValue: UInt32) {
        switch portalValue {
        case 1: self = .preferDark
        case 2: self = .preferLight
        default: self = .noPreference
        }
    }
}
