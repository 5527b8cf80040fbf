import Testing

@testable import BuilderOSKit

/// Leaving GTK's rules for absent widgets out of its theme: what goes, what stays.
struct GtkThemeTrimTests {
    let base = "resource:///org/gtk/libgtk/theme/Default"

    @Test func aRuleGoesOnlyWhenEverySelectorNamesAnAbsentWidget() {
        let css = """
            /* spin buttons */
            spinbutton { padding: 0; }

            spinbutton > text, entry > text { color: red; }

            button.flat:hover { color: blue; }
            """
        let trimmed = GtkThemeTrim.css(css, baseURL: base, without: ["spinbutton"])
        #expect(!trimmed.contains("spinbutton"))
        #expect(trimmed.contains("entry > text { color: red; }"), "the rule stays for the selector that can match")
        #expect(trimmed.contains("button.flat:hover { color: blue; }"))
        #expect(!trimmed.contains("/*"), "comments go")
    }

    @Test func anElementInsideAPseudoClassIsNotRequired() {
        let css = "button:not(spinbutton) { color: red; }\nscale:not(.vertical) { color: blue; }"
        let trimmed = GtkThemeTrim.css(css, baseURL: base, without: ["spinbutton", "scale"])
        #expect(trimmed == "button:not(spinbutton) { color: red; }\n")
    }

    @Test func aClassOrPseudoClassNamedLikeAWidgetIsNotAnElement() {
        #expect(GtkThemeTrim.elements(in: "window.scale > .spinbutton:hover") == ["window"])
        #expect(GtkThemeTrim.elements(in: "headerbar button.titlebutton") == ["headerbar", "button"])
        #expect(GtkThemeTrim.elements(in: "popover.menu>contents~arrow+ box") == ["popover", "contents", "arrow", "box"])
        #expect(GtkThemeTrim.elements(in: ":not(:only-child) > row:dir(rtl)") == ["row"])
    }

    @Test func selectorListsSplitOnlyAtTheirTopLevelCommas() {
        #expect(GtkThemeTrim.selectors(of: "a:not(.x, .y), b ,c") == ["a:not(.x, .y)", "b", "c"])
    }

    @Test func atRulesStayWhole() {
        let css = """
            @define-color accent_color #3584e4;
            @keyframes spin { from { opacity: 0; } to { opacity: 1; } }
            scale { color: @accent_color; }
            """
        let trimmed = GtkThemeTrim.css(css, baseURL: base, without: ["scale"])
        #expect(trimmed == "@define-color accent_color #3584e4;\n@keyframes spin { from { opacity: 0; } to { opacity: 1; } }\n")
    }

    @Test func relativeURLsBecomeAbsoluteUnderTheThemesFolder() {
        let css = """
            check { -gtk-icon-source: -gtk-recolor(url("assets/check-symbolic.symbolic.png")), url('assets/x.png'); }
            radio { background-image: url("resource:///elsewhere/y.png"); }
            """
        let trimmed = GtkThemeTrim.css(css, baseURL: base, without: [])
        #expect(trimmed.contains("-gtk-recolor(url(\"\(base)/assets/check-symbolic.symbolic.png\")), url('\(base)/assets/x.png')"))
        #expect(trimmed.contains("url(\"resource:///elsewhere/y.png\")"))
    }
}
