import CGtk
import Foundation

/// The app's icon for its windows. Installed, it is in the icon theme already; run from the build
/// tree, the repository's `data/icons` is added to the theme's search path.
@MainActor
enum AppIcon {
    static let name = "app.builderos.Desktop"

    static func install() {
        if let icons = buildTreeIcons(), let display = gdk_display_get_default() {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), icons)
        }
        gtk_window_set_default_icon_name(name)
    }

    /// `<repo>/data/icons` when the executable runs from `<repo>/.build/…`.
    static func buildTreeIcons() -> String? {
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = url.appendingPathComponent("data/icons/hicolor/scalable/apps/\(name).svg")
            if FileManager.default.fileExists(atPath: candidate.path) { return url.appendingPathComponent("data/icons").path }
            url.deleteLastPathComponent()
        }
        return nil
    }
}
