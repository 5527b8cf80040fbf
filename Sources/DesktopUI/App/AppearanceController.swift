import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// Light or dark, from the user's preference (Automatic/Light/Dark) and, for Automatic, the
/// desktop's: the Settings portal's `color-scheme` when a portal runs, else GTK's own
/// `gtk-application-prefer-dark-theme` as the session set it. Applying a theme loads GTK's own theme
/// in that variant (trimmed: `GtkThemeTrim`), reloads the one application stylesheet and tells GTK's
/// own widgets (popovers, scrollbars) to match.
@MainActor
public final class AppearanceController {
    public private(set) var preference: Appearance
    public private(set) var theme: DesignTokens.Theme = .light
    private let portal = PortalColorScheme()
    /// GTK's setting before we touch it: the session's own preference.
    private let sessionPrefersDark: Bool
    private var observers: [@MainActor (DesignTokens.Theme) -> Void] = []

    public init(preference: Appearance) {
        self.preference = preference
        let settings = gtk_settings_get_default()!
        let name = Properties.string(UnsafeMutableRawPointer(settings), "gtk-theme-name") ?? ""
        sessionPrefersDark =
            Properties.bool(UnsafeMutableRawPointer(settings), "gtk-application-prefer-dark-theme")
            || name.lowercased().hasSuffix("-dark")
        portal.onChange = { [weak self] _ in self?.apply() }
        // A session theme of the user's (high contrast…) replaces GTK's own: ours then steps aside.
        Signals.connect(UnsafeMutableRawPointer(settings), "notify::gtk-theme-name", withArgument: { [weak self] _ in self?.apply() })
        apply()
    }

    /// Whether the desktop asks for dark: the portal's answer, else the session's GTK setting.
    public var desktopPrefersDark: Bool {
        if let scheme = portal.current, scheme != .noPreference { return scheme == .preferDark }
        return sessionPrefersDark
    }

    public var followsPortal: Bool { portal.current != nil }

    public func set(_ preference: Appearance) {
        self.preference = preference
        apply()
    }

    public func observe(_ observer: @escaping @MainActor (DesignTokens.Theme) -> Void) {
        observers.append(observer)
    }

    /// Parses GTK's theme and the application's stylesheet before GTK starts (`GtkTheme.prepare`,
    /// `ApplicationStyle.prepare`), in the variant `preference` gives where the desktop has no say
    /// (Automatic: light, GTK's and GNOME's default); the desktop's own preference is known only
    /// once GTK has started.
    public static func prepareStyles(for preference: Appearance) {
        let theme = preference.theme(desktopPrefersDark: false)
        let dark = theme == .dark
        GtkTheme.shared.prepare(dark: dark) { gtkThemeCSS(dark: dark) }
        if let tokens = DesignTokens.shipped { ApplicationStyle.shared.prepare(StyleSheetGenerator.css(tokens, theme: theme)) }
    }

    private static func gtkThemeCSS(dark: Bool) -> String {
        GtkThemeTrim.css(GtkTheme.source(dark: dark) ?? "", baseURL: GtkTheme.folderURL)
    }

    private func apply() {
        theme = preference.theme(desktopPrefersDark: desktopPrefersDark)
        // Only when it changes: GtkSettings reloads the whole GTK theme on every set of this
        // property, even to the value it has.
        let settings = UnsafeMutableRawPointer(gtk_settings_get_default()!)
        if Properties.bool(settings, "gtk-application-prefer-dark-theme") != (theme == .dark) {
            Properties.setBool(settings, "gtk-application-prefer-dark-theme", theme == .dark)
        }
        let dark = theme == .dark
        GtkTheme.shared.load(dark: dark) { Self.gtkThemeCSS(dark: dark) }
        if let tokens = DesignTokens.shipped {
            let errors = ApplicationStyle.shared.load(StyleSheetGenerator.css(tokens, theme: theme))
            if errors > 0 { FileHandle.standardError.write(Data("builderos-desktop: \(errors) stylesheet errors\n".utf8)) }
        } else {
            FileHandle.standardError.write(Data("builderos-desktop: design-tokens.json not found; running unstyled\n".utf8))
        }
        observers.forEach { $0(theme) }
    }
}
