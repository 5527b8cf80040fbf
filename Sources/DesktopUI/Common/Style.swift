import BuilderOSKit

/// The stylesheet classes the pages use, named once (the generator emits them from the tokens).
enum Style {
    static let app = "bos-app"
    static let hero = "bos-text-hero"
    static let display = "bos-text-display"
    static let dim = "bos-dim"
    static let mono = "bos-mono"
    static let title = "bos-text-title"
    static let headline = "bos-text-headline"
    static let body = "bos-text-body"
    static let label = "bos-text-label"
    static let caption = "bos-text-caption"
    static let code = "bos-text-code"
    static let secondary = "bos-secondary-on-card"
    static let card = "bos-card"
    static let notice = "bos-notice"
    static let command = "bos-command"
    static let entry = "bos-entry"
    static let suggested = "bos-button-suggested"
    static let secondaryButton = "bos-button-secondary"
    static let destructive = "bos-button-destructive"
    static let logoTile = "bos-logo-tile"
    /// A logo tile whose gradient a drawing area paints (`LogoTile`, under GL).
    static let logoDrawn = "bos-logo-drawn"
    static let stepDot = "bos-step-dot"
    static let stepDotCurrent = "bos-step-dot-current"
    static let stepDotDone = "bos-step-dot-done"
    static let checkPassed = "bos-check-passed"
    static let checkNote = "bos-check-note"
    static let checkFailed = "bos-check-failed"
    static let checkPending = "bos-check-pending"
    /// Colour-only text classes, for text on any surface.
    static let errorText = "bos-error-text"
    static let warningText = "bos-warning-text"
    static let successText = "bos-success-text"
    static let link = "bos-link"
    static let bubbleUser = "bos-bubble-user"
    static let bubbleAssistant = "bos-bubble-assistant"
    /// A bubble standing empty until its content is made (`RowPlaceholders`).
    static let bubblePending = "bos-bubble-pending"
    static let statusPill = "bos-status-pill"
    /// The message a search result opened.
    static let found = "bos-found"
    /// The find bar's marks (Pango colours, not CSS: they cover parts of a label's text).
    static let findMatch: (background: String, text: String) = {
        let colors = DesignTokens.shipped?.colors
        return (colors?["find-match"]?.light ?? "#FFD60A", colors?["find-match-text"]?.light ?? "#000000")
    }()
    static let timestamp = "bos-timestamp"
    static let codeBlock = "bos-code-block"
    static let quickAction = "bos-quick-action"
    static let connectButton = "bos-button-connect"
    static let dot = "bos-dot"
    static let composer = "bos-composer"
    static let inputBarButton = "bos-input-bar-button"
    static let transparent = "bos-transparent"
    static let pageSwitcher = "bos-page-switcher"
    static let sidebar = "bos-sidebar"
    static let placeholder = "bos-placeholder"
    static let capsule = "bos-capsule"
    static let quickLink = "bos-quick-link"
    static let previewToolbar = "bos-preview-toolbar"
    static let emptyIcon = "bos-empty-icon"
    static let separator = "bos-separator"

    /// Spacing in pixels from the design tokens (`data/design-tokens.json`, read once), for GTK box
    /// spacing and margins; the CSS classes carry the rest. 0 when the file is missing (unstyled).
    static let gapHairline = space("2xs")
    /// Icon/text gaps.
    static let gapTiny = space("xs")
    static let gapSmall = space("sm")
    static let gapMedium = space("md")
    static let gap = space("lg")
    static let gapLarge = space("2xl")
    static let section = space("3xl")

    private static func space(_ name: String) -> Int32 { Int32(DesignTokens.shipped?.spacing(name) ?? 0) }
}

/// Animation durations from the tokens (milliseconds). Every animation in the app is GTK's own
/// (stack transitions, CSS transitions, spinners), and GTK skips them all when the desktop turns
/// animations off (`gtk-enable-animations`), so nothing here needs to check it again.
enum Motion {
    static func duration(_ name: String) -> UInt32 { UInt32(DesignTokens.shipped?.duration(name) ?? 0) }
}

/// Sizes the pages set in code, from the tokens' `layout` (px) and `measures` (characters): no page
/// writes a number of its own (`StyleLiteralTests`).
enum Layout {
    static func px(_ name: String) -> Int32 { Int32(DesignTokens.shipped?.layout(name) ?? -1) }
    static func chars(_ name: String) -> Int32 { Int32(DesignTokens.shipped?.measure(name) ?? -1) }
}
