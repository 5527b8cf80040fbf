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
        standInInstalled = true
        // Found now, for `prepare`: finding them takes the dynamic loader's lock, which the GL
        // driver's loading holds for ~30 ms (rule 9).
        _ = bos_gtk_theme_library_resources()
    }

    nonisolated(unsafe) private static var standInInstalled = false

    /// Whether GTK loaded the stand-in at the last `load`, so its theme was the app's to load.
    public private(set) var standsIn = false

    /// GTK's stylesheet for light or dark, as GTK ships it: read from GTK's library, so also before
    /// GTK starts.
    public static func source(dark: Bool) -> String? {
        let path = "/org/gtk/libgtk/theme/Default/Default-\(dark ? "dark" : "light").css"
        let flags = G_RESOURCE_LOOKUP_FLAGS_NONE
        let found =
            bos_gtk_theme_library_resources().map { g_resource_lookup_data($0, path, flags, nil) } ?? g_resources_lookup_data(path, flags, nil)
        guard let bytes = found else { return nil }
        defer { g_bytes_unref(bytes) }
        var size = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    }

    private let provider = ObjectRef(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
    private var attached = false
    /// The variant loaded (nil: none, as GTK loaded a theme of the session's own).
    public private(set) var loadedDark: Bool?
    /// The provider holds a load (`loadedDark` says which).
    private var holdsLoad = false
    /// The variant `prepare` parsed before GTK started, and whether GTK's start then used it.
    public private(set) var prepared: (dark: Bool, used: Bool)?
    /// GTK's parsing errors in the last load (none: the checks see it).
    public private(set) var errors = 0
    private var connection: SignalConnection?

    private init() {
        connection = Signals.connect(provider.pointer, "parsing-error", withTwoArguments: { [weak self] _, _ in self?.errors += 1 })
    }

    /// Parses `css` (made from `source(dark:)`), the variant the first window will most likely
    /// show, before GTK starts, while the main thread would wait for the GL driver (rule 45 of
    /// docs/performance.md); `load` uses it when GTK then loads the stand-in and that variant is
    /// wanted. Call after `installStandIn`, before GTK starts.
    public func prepare(dark: Bool, _ css: () -> String) {
        guard Self.standInInstalled, bos_gtk_theme_library_resources() != nil else { return }
        errors = 0
        guard bos_gtk_theme_parse_without_display(provider.typed(GtkCssProvider.self), css()) != 0 else { return }
        loadedDark = dark
        holdsLoad = true
        prepared = (dark, false)
    }

    /// Loads `css` (made from `source(dark:)`) as the theme when GTK loaded the stand-in, and
    /// nothing when GTK loaded a theme of the session's own. Call when GTK starts and whenever the
    /// variant or the session's theme (`gtk-theme-name`) changes; a load that would change nothing
    /// does nothing.
    public func load(dark: Bool, _ css: () -> String) {
        standsIn = bos_gtk_theme_stand_in_loaded() != 0
        let wanted = standsIn ? dark : nil
        if !holdsLoad || wanted != loadedDark {
            loadedDark = wanted
            holdsLoad = true
            errors = 0
            gtk_css_provider_load_from_data(provider.typed(GtkCssProvider.self), wanted == nil ? "" : css(), -1)
        } else if !attached, let variant = prepared {
            prepared = (variant.dark, true)
        }
        if !attached, let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider.pointer), UInt32(GTK_STYLE_PROVIDER_PRIORITY_THEME))
            attached = true
        }
    }
}
