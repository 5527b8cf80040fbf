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
        lines.append("window.\(prefix)app { background-color: @background; color: @text; font-family: \(tokens.family("sans")); }")
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
        lines += widgetRules(tokens)
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
        if let end = c.gradientTo { parts.append("background-image: linear-gradient(135deg, @\(c.background), @\(end));") }
        if let style = tokens.typography.styles[c.text] { parts.append(font(style, tokens)) }
        if let radius = c.radius.flatMap({ tokens.radii[$0] }) { parts.append("border-radius: \(radius)px;") }
        if let padding = c.padding?.compactMap({ tokens.spacing[$0] }), !padding.isEmpty {
            parts.append("padding: " + padding.map { "\($0)px" }.joined(separator: " ") + ";")
        }
        return ".\(prefix)\(name) { \(parts.joined(separator: " ")) }"
    }

    /// How GTK's own widgets wear the components: buttons lose the theme's gradient and border and
    /// show hover, press and disabled states; entries take the field colours and a focus ring.
    static func widgetRules(_ tokens: DesignTokens) -> [String] {
        let t = Values(tokens)
        // GTK's own buttons (header, sidebar, composer, menus) are flat too, filled like the design's
        // quick actions, with the same hover and press states: the default theme's gradient and drop
        // shadow are not the design's, and under GL each costs memory for as long as the window lives
        // (docs/performance.md, rule 40). Their border keeps its width for their size but is not drawn
        // (rule 42). The fill has the lowest specificity, so components win.
        var lines = [
            "button { background-image: none; box-shadow: none; border-color: transparent; background-color: @surface-raised; }",
            "button.flat, button.link, windowcontrols > button { background-color: transparent; }",
            "button:hover { background-image: image(alpha(@text, \(t.opacity("hover")))); }",
            "button:active, button:checked { background-image: image(alpha(@text, \(t.opacity("pressed")))); }",
            // The header bar is flat as well: under GL the theme's gradient takes a shader program of
            // its own for as long as the window lives (rule 43).
            "headerbar { background-image: none; }",
        ]
        for name in tokens.components.keys.sorted() where name.hasPrefix("button-") {
            let selector = "button.\(prefix)\(name)"
            lines.append("\(selector) { border: none; box-shadow: none; background-image: none; transition: all \(t.ms("fast")) ease-out; }")
            lines.append("\(selector):hover { background-image: image(alpha(@text, \(t.opacity("hover")))); }")
            lines.append("\(selector):active { background-image: image(alpha(@text, \(t.opacity("pressed")))); }")
            lines.append("\(selector):disabled { opacity: \(t.opacity("disabled")); }")
        }
        // Every entry's outline is a ring in the margin its border took, and its focus ring is the
        // same ring wider (rule 42): the theme's border and focus outline are rounded borders.
        let (border, ring) = (t.size("border"), t.size("focus-ring"))
        lines.append("entry { border-width: 0; margin: \(border); outline-style: none; box-shadow: 0 0 0 \(border) @separator; }")
        lines.append("entry:focus-within { box-shadow: 0 0 0 \(ring) @accent; }")
        lines.append("entry.error { box-shadow: 0 0 0 \(border) @destructive-text; }")
        lines.append("entry.error:focus-within { box-shadow: 0 0 0 \(ring) @destructive-text; }")
        lines.append("entry.\(prefix)entry { min-height: \(t.size("entry-min-height")); }")
        // The overlay scrollbar's resting indicator too: the theme outlines it to stand out on any content.
        lines.append(
            "scrollbar.overlay-indicator:not(.dragging):not(.hovering) > range > trough > slider { border-width: 0; margin: \(border); box-shadow: 0 0 0 \(border) alpha(@background, \(t.opacity("indicator-outline"))); }"
        )
        lines.append(".\(prefix)separator { background-color: @separator; min-height: \(border); }")
        // Secondary text on whatever it sits on (window, card or field): colour only.
        lines.append(".\(prefix)dim { color: @text-secondary; }")
        lines.append(".\(prefix)error-text { color: @destructive-text; }")
        lines.append(".\(prefix)warning-text { color: @warning-text; }")
        lines.append(".\(prefix)success-text { color: @success-text; }")
        lines.append(".\(prefix)mono { font-family: \(tokens.family("mono")); }")
        lines += mainWindowRules(tokens)
        return lines
    }

    /// The main window's own pieces: the connection dot (pulsing while connecting; GTK stops CSS
    /// animations when the desktop turns animations off), the composer, list backgrounds, placeholders.
    static func mainWindowRules(_ tokens: DesignTokens) -> [String] {
        let t = Values(tokens)
        let (border, card) = (t.size("border"), t.radius("card"))
        return [
            "@keyframes \(prefix)pulse { 0% { opacity: 1; } 50% { opacity: \(t.opacity("pulse-low")); } 100% { opacity: 1; } }",
            ".\(prefix)dot { min-width: \(t.size("status-dot")); min-height: \(t.size("status-dot")); border-radius: \(t.radius("pill")); }",
            ".\(prefix)dot.connected { background-color: @success; }",
            ".\(prefix)dot.connecting { background-color: @warning; animation: \(prefix)pulse \(t.ms("pulse")) ease-in-out infinite; }",
            ".\(prefix)dot.disconnected, .\(prefix)dot.failed { background-color: @destructive; }",
            // The composer's outline is a ring like an entry's (rule 42).
            ".\(prefix)composer { background-color: @surface; margin: \(border); box-shadow: 0 0 0 \(border) @separator; border-radius: \(t.radius("bubble")); padding: \(t.space("sm", "lg")); }",
            ".\(prefix)composer:focus-within { box-shadow: 0 0 0 \(border) @accent; }",
            ".\(prefix)composer textview, .\(prefix)composer textview text { background-color: transparent; color: @text; }",
            // GTK's scrollbar would ask 46 px of the field, empty or not; with a shorter slider the field is one
            // line tall and its padding (002: 36 px).
            ".\(prefix)composer scrollbar.vertical slider { min-height: \(t.space("md")); }",
            // The input bar's buttons are circles (002: ⚡ and Send, 36 px): Send filled with the accent, the others flat
            // in the accent's colour. Icons (⚡ among them) at GTK's 16 px, not the design's 18 (docs/performance.md, rule 49).
            "button.\(prefix)input-bar-button, menubutton.\(prefix)input-bar-button > button { min-width: \(t.size("input-bar-button")); min-height: \(t.size("input-bar-button")); padding: 0; border-width: 0; border-radius: \(t.radius("pill")); }",
            "button.\(prefix)input-bar-button.flat, menubutton.\(prefix)input-bar-button > button { color: @accent-text; }",
            ".\(prefix)transparent, listview.\(prefix)transparent, listview.\(prefix)transparent > row, .\(prefix)transparent > row { background-color: transparent; }",
            "listview.\(prefix)transparent > row:hover, listview.\(prefix)transparent > row:selected { background-color: transparent; }",
            // The sidebar's edge is its pane's separator, in the design's colour.
            ".\(prefix)sidebar { background-color: @surface; }",
            "paned > separator { background-image: image(@separator); }",
            ".\(prefix)sidebar row { border-radius: \(card); margin: \(t.space("2xs", "sm")); padding: \(t.space("sm", "md")); }",
            ".\(prefix)sidebar row:selected { background-color: alpha(@accent, \(t.opacity("selected"))); color: @text; }",
            ".\(prefix)placeholder { background-color: @surface-raised; border-radius: \(card); min-height: \(t.size("placeholder-min-height")); opacity: \(t.opacity("placeholder")); }",
            // A message row whose content is not made yet (`RowPlaceholders`): its bubble, empty and dimmed.
            ".\(prefix)bubble-pending { opacity: \(t.opacity("placeholder")); }",
            ".\(prefix)bubble-assistant link, .\(prefix)card link { color: @accent-text; }",
            // The message a search result opened: an accent ring a little outside its bubble or pill (the
            // gap keeps it visible around the user's accent-coloured bubble).
            ".\(prefix)found .\(prefix)bubble-user, .\(prefix)found .\(prefix)bubble-assistant, .\(prefix)found .\(prefix)status-pill { outline: \(t.size("focus-ring")) solid @accent; outline-offset: \(t.size("focus-ring")); }",
            ".\(prefix)code-block scrollbar { background-color: transparent; }",
            ".\(prefix)capsule { background-color: @surface; border-radius: \(card); padding: \(t.space("lg")); }",
            "flowboxchild:focus .\(prefix)capsule, button.\(prefix)capsule:hover { box-shadow: inset 0 0 0 \(t.size("focus-ring")) @accent; }",
            "button.\(prefix)capsule { border: none; background-image: none; }",
            // The header's page switcher: the title is centred, so its buttons' padding decides how
            // narrow the window can get.
            ".\(prefix)page-switcher > button { padding-left: \(t.space("sm")); padding-right: \(t.space("sm")); min-width: 0; }",
            // Preview: a quick link is a card; the one shown in the web view is filled with the accent.
            "button.\(prefix)quick-link { border: none; background-image: none; background-color: @surface; border-radius: \(card); padding: \(t.space("md")); }",
            "button.\(prefix)quick-link:hover { box-shadow: inset 0 0 0 \(t.size("focus-ring")) @accent; }",
            "button.\(prefix)quick-link.active { background-color: @accent; color: @on-accent; }",
            "button.\(prefix)quick-link.active label { color: @on-accent; }",
            ".\(prefix)preview-toolbar { background-color: @surface; border-bottom: \(border) solid @separator; padding: \(t.space("xs", "sm")); }",
            ".\(prefix)empty-icon { color: alpha(@accent, \(t.opacity("empty-icon"))); }",
            // The logo where its gradient is drawn beneath the letter (`LogoTile`, under GL; rule 43).
            ".\(prefix)logo-tile.\(prefix)logo-drawn { background: none; }",
            // The terminal's text keeps off the window's edges (VTE paints its own background there).
            "vte-terminal { padding: \(t.space("xs", "sm")); }",
        ]
    }

    /// Tokens as CSS values ("16px", "150ms", "0.45"), so no rule writes a number of its own.
    struct Values {
        let tokens: DesignTokens
        init(_ tokens: DesignTokens) { self.tokens = tokens }
        func space(_ names: String...) -> String { names.map { "\(tokens.spacing($0))px" }.joined(separator: " ") }
        func radius(_ name: String) -> String { "\(tokens.radius(name))px" }
        func size(_ name: String) -> String { "\(tokens.size(name))px" }
        func ms(_ name: String) -> String { "\(tokens.duration(name))ms" }
        func opacity(_ name: String) -> String { format(tokens.opacity(name)) }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
