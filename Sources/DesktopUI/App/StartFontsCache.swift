import BuilderOSKit
import Foundation
import GtkKit

/// The main window's fonts, loaded while GTK starts (`GtkKit/FontPreload`) from what the last
/// start's first frame used (`StartFonts`), or on a first start from the shipped seed, and kept
/// again after each first frame.
enum StartFontsCache {
    /// Before GTK starts: the loading thread reads the file itself, so the main thread waits for no disk.
    nonisolated static func preload() {
        let language = FontPreload.defaultLanguage
        FontPreload.start {
            (StartFonts.read() ?? StartFonts.seed(language: language)).map {
                FontPreload.Fonts(context: $0.context, fonts: $0.fonts, characters: $0.characters)
            }
        }
    }

    /// After the main window's first frame: keeps its fonts for the next start when they changed
    /// (another desktop setting, language or page). A few hundred bytes, read and written here
    /// (the frame is out already), so that they are kept even when the process ends right after
    /// (the benchmark's starts); a cache that cannot be written only costs the next start its head
    /// start, so a failure is not reported.
    @MainActor static func keep(fontsOf window: Widget) {
        let used = FontPreload.describe(window, limit: StartFonts.limit)
        let fonts = StartFonts(context: used.context, fonts: used.fonts, characters: used.characters)
        if StartFonts.read() != fonts { try? fonts.write() }
    }
}
