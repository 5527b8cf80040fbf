import BuilderOSKit
import CGtk
import Foundation
import GtkKit

/// The app's icon for its windows and the tray. In a prefix on the desktop's data path it is in the icon theme
/// already; installed elsewhere (`<prefix>/share/icons`) or run from the build folder (the checkout's `data/icons`),
/// that folder has to join the theme's search path.
@MainActor
enum AppIcon {
    nonisolated static let name = BuilderOSKit.applicationID

    /// Before GTK starts: a folder the theme would not search is put on `XDG_DATA_DIRS`, which GTK's icon
    /// theme reads when it is made. Added later (`gtk_icon_theme_add_search_path`), the same folder makes GTK
    /// throw away the theme it is loading on a worker thread, wait for it, and load it again on the main
    /// thread at the first icon, inside the first frame.
    nonisolated static func addFolderToDataDirectories() {
        guard let icons = iconFolder(), !environmentSearches(icons) else { return }
        let share = (icons as NSString).deletingLastPathComponent
        setenv("XDG_DATA_DIRS", dataDirectories().reduce(share) { $0 + ":" + $1 }, 1)
    }

    /// Whether GTK's theme searches `icons` by the environment alone: its share folder is one of the
    /// data directories or the user's own.
    nonisolated static func environmentSearches(_ icons: String) -> Bool {
        let share = (icons as NSString).deletingLastPathComponent
        let home = getenv("XDG_DATA_HOME").map { String(cString: $0) } ?? (NSHomeDirectory() + "/.local/share")
        return dataDirectories().contains(share) || share == home
    }

    private nonisolated static func dataDirectories() -> [String] {
        let value = getenv("XDG_DATA_DIRS").map { String(cString: $0) } ?? ""
        return (value.isEmpty ? "/usr/local/share:/usr/share" : value).split(separator: ":").map(String.init)
    }

    /// Makes the app's icon findable, and gives it to the windows once one has painted its first
    /// frame. A window realized with an icon name makes GTK load every size the theme has of it (16
    /// to 512 px) and, on X11, send them all to the X server as `_NET_WM_ICON` (1.4 MB), inside that
    /// window's first frame; the window manager shows the icon a frame later instead. (On Wayland
    /// the compositor takes the icon from the desktop file; giving it late is harmless there.)
    static func install(on application: UnsafeMutablePointer<GtkApplication>) {
        // The theme is asked only when the environment does not say (a process that did not call
        // `addFolderToDataDirectories`): reading its search path waits for the theme GTK is loading on
        // a worker thread, inside the first frame.
        if let icons = iconFolder(), !environmentSearches(icons), let display = gdk_display_get_default() {
            let theme = gtk_icon_theme_get_for_display(display)
            if !searchPath(of: theme).contains(icons) { gtk_icon_theme_add_search_path(theme, icons) }
        }
        FirstPaint.afterFirstWindow(of: application) { giveWindowsTheIcon(application) }
    }

    /// The default for windows to come, and the icon of each window there is now.
    private static func giveWindowsTheIcon(_ application: UnsafeMutablePointer<GtkApplication>) {
        gtk_window_set_default_icon_name(name)
        var windows = gtk_application_get_windows(application)
        while let node = windows {
            gtk_window_set_icon_name(node.pointee.data.assumingMemoryBound(to: GtkWindow.self), name)
            windows = node.pointee.next
        }
    }

    /// `<prefix>/share/icons` beside an installed executable, else the checkout's `data/icons` for a built one.
    nonisolated static func iconFolder() -> String? {
        let candidates = [SourceTree.installedShare.appendingPathComponent("icons"), SourceTree.root.appendingPathComponent("data/icons")]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("hicolor/scalable/apps/\(name).svg").path) }?.path
    }

    private static func searchPath(of theme: OpaquePointer?) -> [String] {
        guard let paths = gtk_icon_theme_get_search_path(theme) else { return [] }
        defer { g_strfreev(paths) }
        var result: [String] = []
        var index = 0
        while let path = paths[index] { result.append(String(cString: path)); index += 1 }
        return result
    }
}
