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

    /// One loading's result, handed from its thread to the main thread, or dropped when the main
    /// thread went on without it.
    private final class Loading: @unchecked Sendable {
        private let lock = NSLock()
        private var ended = false
        /// `take` has been called: the result is the main thread's, or nobody's.
        private var taken = false
        private var map: UnsafeMutablePointer<PangoFontMap>?
        private var fonts: Fonts?

        /// On the loading thread, once.
        func end(map: UnsafeMutablePointer<PangoFontMap>?, fonts: Fonts?) {
            let unwanted = lock.withLock {
                ended = true
                if taken { return map }
                (self.map, self.fonts) = (map, fonts)
                return nil
            }
            if let unwanted { g_object_unref(unwanted) }
        }

        enum Taken {
            case ready(UnsafeMutablePointer<PangoFontMap>, Fonts?)
            /// Nothing was loaded, or it was taken before.
            case nothing
            /// Still loading: the loading drops its font map when it ends.
            case leftBehind
        }

        /// On the main thread: the first call gets the result if the loading has ended.
        func take() -> Taken {
            lock.withLock {
                defer { taken = true }
                guard !taken else { return .nothing }
                guard ended else { return .leftBehind }
                return map.map { .ready($0, fonts) } ?? .nothing
            }
        }

        var hasEnded: Bool { lock.withLock { ended } }
    }

    /// The language GTK lays text out in (Pango's default, from the locale), as the settings line
    /// of `describe` names it. Valid once the locale is set.
    public static var defaultLanguage: String { String(cString: pango_language_to_string(pango_language_get_default())) }

    /// The last loading started (kept after `finish`: `hasEnded` looks at it).
    nonisolated(unsafe) private static var loading: Loading?
    /// The fonts `finish` made ready for GTK (nil when none): what the checks look at.
    @MainActor public private(set) static var loaded: Fonts?
    /// Whether the last `finish` found the loading still going and went on without it.
    @MainActor public private(set) static var leftBehind = false

    /// Starts loading what `fonts` returns (called on the new thread: it may read a file). Call on
    /// the main thread before GTK starts.
    public static func start(_ fonts: @escaping @Sendable () -> Fonts?) {
        let job = Loading()
        loading = job
        let thread = Thread {
            guard let wanted = fonts(), !wanted.fonts.isEmpty else { return job.end(map: nil, fonts: nil) }
            let count = min(wanted.fonts.count, wanted.characters.count)
            var names = wanted.fonts.prefix(count).map { UnsafePointer(strdup($0)) }
            var sets = wanted.characters.prefix(count).map { UnsafePointer(strdup($0)) }
            defer { (names + sets).forEach { free(UnsafeMutablePointer(mutating: $0)) } }
            job.end(map: bos_font_preload_load(wanted.context, &names, &sets, Int32(count)), fonts: wanted)
        }
        thread.name = "font-preload"
        thread.start()
    }

    /// Whether the last loading `start` began has ended, used or not (true when none was started):
    /// the checks wait for it.
    @MainActor public static var hasEnded: Bool { loading?.hasEnded ?? true }

    /// Makes the font map the loading `start` began filled the one GTK's widgets lay text out with,
    /// if the loading has ended (while GTK started: it usually has). Otherwise GTK loads the fonts
    /// itself: the loading runs at a low priority (`bos_font_preload_load`), so on a busy machine it
    /// may be far from done, and waiting for it would hold the first window back. Call on the main
    /// thread before the first window is built. False when there was nothing (yet) to use.
    @MainActor @discardableResult
    public static func finish() -> Bool {
        let taken = loading?.take() ?? .nothing
        leftBehind = if case .leftBehind = taken { true } else { false }
        guard case .ready(let map, let fonts) = taken else { return false }
        bos_font_preload_make_default(map)
        loaded = fonts
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
