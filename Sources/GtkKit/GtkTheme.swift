import CGtk
import CGtkTheme
import Foundation

/// GTK's own theme (Adwaita), loaded by the app instead of by GTK, so the app can leave out what
/// it never shows (rule 44 of docs/performance.md).
///
/// How: before GTK starts, `installStandIn()` registers resources under the names GTK loads its
/// theme from (`data/gtk-theme-stand-in`), found before GTK's own. GTK then loads a stand-in that
/// holds one colour name and nothing else, and the app loads GTK's real stylesheet, as it wishes,
/// at the same priority a theme has. A session whose theme is not GTK's own (high contrast, a
/// theme the user installed) never reaches the stand-in: GTK loads that theme in full, and
/// `standsIn` is false.
@MainActor
public final class GtkTheme {
    public static let shared = GtkTheme()

    /// Where GTK keeps its theme: relative `url()`s in its stylesheets are relative to this.
    public static let folderURL = "resource:///org/gtk/libgtk/theme/Default"

    /// Call first in `main`, before GTK starts and before any resource is looked up. Only under
    /// GTK 4.8: the names the stand-in answers and the stylesheets `source` reads are 4.8's.
    public nonisolated static func installStandIn() {
        guard gtk_get_major_version() == 4, gtk_get_minor_version() == 8 else { return }
        bos_gtk_theme_stand_in_install()
    }

    /// Whether GTK loaded the stand-in at the last `load`, so its theme was the app's to load.
    public private(set) var standsIn = false

    /// GTK's stylesheet for light or dark, as GTK ships it.
    public static func source(dark: Bool) -> String? {
        let path = "/org/gtk/libgtk/theme/Default/Default-\(dark ? "dark" : "light").css"
        guard let bytes = g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    }

    private let provider = ObjectRef(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
    private var attached = false
    /// The variant loaded (nil: none, as GTK loaded a theme of the session's own).
    public private(set) var loadedDark: Bool?
    /// GTK's parsing errors in the last load (none: the checks see it).
    public private(set) var errors = 0
    private var connection: SignalConnection?

    private init() {
        connection = Signals.connect(provider.pointer, "parsing-error", withTwoArguments: { [weak self] _, _ in self?.errors += 1 })
    }

    /// Loads `css` (made from `source(dark:)`) as the theme when GTK loaded the stand-in, and
    /// nothing when GTK loaded a theme of the session's own. Call when GTK starts and whenever the
    /// variant or the session's theme (`gtk-theme-name`) changes; a load that would change nothing
    /// does nothing.
    public func load(dark: Bool, _ css: () -> String) {
        standsIn = bos_gtk_theme_stand_in_loaded() != 0
        let wanted = standsIn ? dark : nil
        guard wanted != loadedDark || !attached else { return }
        loadedDark = wanted
        errors = 0
        gtk_css_provider_load_from_data(provider.typed(GtkCssProvider.self), wanted == nil ? "" : css(), -1)
        if !attached, let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider.pointer), UInt32(GTK_STYLE_PROVIDER_PRIORITY_THEME))
            attached = true
        }
    }
}
