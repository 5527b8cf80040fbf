import CGtk
import CStartPreload
import Foundation

/// Loads the fonts of the first frame on a thread of its own while GTK starts, and describes the
/// fonts a window used, for the next start (why: `CStartPreload`'s `bos_font_preload.h`).
public enum FontPreload {
    /// GTK's text settings (one line) and the Pango font descriptions to load with them.
    public struct Fonts: Equatable, Sendable {
        public var context: String
        public var fonts: [String]
        public init(context: String, fonts: [String]) { self.context = context; self.fonts = fonts }
    }

    /// Laid out and drawn in each font: the letters, digits and punctuation of the app's languages
    /// (English, German, Spanish), so their glyphs and shaping plans are ready too.
    static let sample =
        String((32...126).map { Character(Unicode.Scalar(UInt8($0))) })
        + "ÄÖÜäöüßÁÉÍÑÓÚáéíñóúü¿¡«»–—…‘’“”•€·×"

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
            var names = wanted.fonts.map { strdup($0) }
            defer { names.forEach { free($0) } }
            job.map = names.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                    bos_font_preload_load(wanted.context, $0, Int32(buffer.count), sample)
                }
            }
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

    /// GTK's text settings and the fonts of the labels `window` shows now (at most `limit`).
    @MainActor
    public static func describe(_ window: UnsafeMutablePointer<GtkWidget>, limit: Int) -> Fonts {
        let context = bos_font_setup_describe_context(window)
        defer { g_free(context) }
        let list = bos_font_setup_describe_fonts(window, Int32(limit))
        defer { g_strfreev(list) }
        var fonts: [String] = []
        var index = 0
        while let name = list?[index] { fonts.append(String(cString: name)); index += 1 }
        return Fonts(context: context.map { String(cString: $0) } ?? "", fonts: fonts)
    }
}
