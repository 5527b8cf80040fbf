import BuilderOSKit
import CGtk
import Foundation

/// The app's icon for its windows and the tray. In a prefix on the desktop's data path it is in the icon theme
/// already; installed elsewhere (`<prefix>/share/icons`) or run from the build folder (the checkout's `data/icons`),
/// that folder is added to the theme's search path.
@MainActor
enum AppIcon {
    static let name = BuilderOSKit.applicationID

    static func install() {
        if let icons = iconFolder(), let display = gdk_display_get_default() {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), icons)
        }
        gtk_window_set_default_icon_name(name)
    }

    /// `<prefix>/share/icons` beside an installed executable, else the checkout's `data/icons` for a built one.
    static func iconFolder() -> String? {
        let candidates = [SourceTree.installedShare.appendingPathComponent("icons"), SourceTree.root.appendingPathComponent("data/icons")]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("hicolor/scalable/apps/\(name).svg").path) }?.path
    }
}
