import CGtk
import CStartPreload
import Foundation

/// Loads the fonts of the first frame on a thread of its own while GTK starts, and describes the
/// fonts a window used, for the next start (why: `CStartPreload`'s `bos_font_preload.h`).
public enum FontPreload {
    /// GTK's text settings (one line), the Pango font descriptions to load with them, and the
    /// characters to draw in each (same order): their glyphs and shaping plans are then ready too.
    public struct Fonts: Equatable, Sendable {
        public var context: String
        public var fonts: [String]
        public var characters: [String]
        public init(context: String, fonts: [String], characters: [String]) {
            self.context = context
            self.fonts = fonts
            self.characters = characters
        }
    }

    private final class Loading: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        /// Written by the loading thread before `done` is signalled; read after waiting for it.
        var map: UnsafeMutablePointer<PangoFontMap>?
        var fonts: Fonts?
    }

    nonisolated(unsafe) private static var loading: Loading?
    /// The fonts `finish` made ready for GTK (nil when none): what the checks look at.
    @MainActor public private(set) static var loaded: Fonts?

    /// Starts loading what `fonts` returns (called on the new thread: it may read a file). Call on
    /// the main thread before GTK starts.
    public static func start(_ fonts: @escaping @Sendable () -> Fonts?) {
        let job = Loading()
        loading = job
        let thread = Thread {
            defer { job.done.signal() }
            guard let wanted = fonts(), !wanted.fonts.isEmpty else { return }
            job.fonts = wanted
            let count = min(wanted.fonts.count, wanted.characters.count)
            var names = wanted.fonts.prefix(count).map { UnsafePointer(strdup($0)) }
            var sets = wanted.characters.prefix(count).map { UnsafePointer(strdup($0)) }
            defer { (names + sets).forEach { free(UnsafeMutablePointer(mutating: $0)) } }
            job.map = bos_font_preload_load(wanted.context, &names, &sets, Int32(count))
        }
        thread.name = "font-preload"
        thread.start()
    }

    /// Waits for the loading `start` began (while GTK started: usually over by now) and makes its
    /// font map the one GTK's widgets lay text out with. Call on the main thread before the first
    /// window is built. False when there was nothing to load.
    @MainActor @discardableResult
    public static func finish() -> Bool {
        guard let job = loading else { return false }
        loading = nil
        job.done.wait()
        guard let map = job.map else { return false }
        bos_font_preload_make_default(map)
        loaded = job.fonts
        return true
    }

    /// GTK's text settings and the fonts of the labels `window` shows now (at most `limit`), with
    /// the characters each sets.
    @MainActor
    public static func describe(_ window: UnsafeMutablePointer<GtkWidget>, limit: Int) -> Fonts {
        let context = bos_font_setup_describe_context(window)
        defer { g_free(context) }
        var sets: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let list = bos_font_setup_describe_fonts(window, Int32(limit), &sets)
        defer { g_strfreev(list); g_strfreev(sets) }
        func strings(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
            var result: [String] = []
            while let item = array?[result.count] { result.append(String(cString: item)) }
            return result
        }
        return Fonts(context: context.map { String(cString: $0) } ?? "", fonts: strings(list), characters: strings(sets))
    }
}
