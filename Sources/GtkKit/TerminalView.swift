import CGtk
import CTerminalView
import Foundation

/// A VTE terminal widget, loaded on first use (`TerminalView.load()`): the app does not link VTE, so
/// it costs nothing until a terminal tab opens. Bytes in are shown; what the user types or pastes
/// comes out through `onInput`.
@MainActor
public final class TerminalView {
    /// Loads libvte-2.91-gtk4 (once). nil when it is there, dlerror()'s text otherwise.
    public static func load() -> String? {
        var error: UnsafePointer<CChar>?
        return bos_terminal_load(&error) != 0 ? nil : error.map { String(cString: $0) } ?? "libvte-2.91-gtk4 could not be loaded"
    }

    public static var isLoaded: Bool { bos_terminal_is_loaded() != 0 }

    public let widget: Widget
    private var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(widget) }

    private final class InputBox {
        let handler: @MainActor (Data) -> Void
        init(_ handler: @escaping @MainActor (Data) -> Void) { self.handler = handler }
    }

    /// Call `load()` first.
    public init(scrollback: Int, onInput: @escaping @MainActor (Data) -> Void) {
        precondition(TerminalView.isLoaded, "TerminalView.load() must succeed first")
        widget = bos_terminal_new(scrollback)!.assumingMemoryBound(to: GtkWidget.self)
        let user = Unmanaged.passRetained(InputBox(onInput)).toOpaque()
        bos_terminal_on_input(
            raw,
            { bytes, length, user in
                let box = Unmanaged<InputBox>.fromOpaque(user!).takeUnretainedValue()
                let data = Data(bytes: bytes!, count: Int(length))
                MainActor.assumeIsolated { box.handler(data) }
            }, user, { user in Unmanaged<InputBox>.fromOpaque(user!).release() })
    }

    public func feed(_ data: Data) {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            bos_terminal_feed(raw, base.assumingMemoryBound(to: CChar.self), bytes.count)
        }
    }

    public var rows: Int { bos_terminal_rows(raw) }
    public var columns: Int { bos_terminal_columns(raw) }

    /// "#rrggbb" colours: text, background and the 16-colour palette.
    public func setColors(foreground: String, background: String, palette: [String]) {
        precondition(palette.count == 16)
        let copies = palette.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { bos_terminal_set_colors(raw, foreground, background, $0.baseAddress) }
    }

    public var fontScale: Double {
        get { bos_terminal_font_scale(raw) }
        set { bos_terminal_set_font_scale(raw, newValue) }
    }

    public func copy() { bos_terminal_copy(raw) }
    public func paste() { bos_terminal_paste(raw) }
    public var hasSelection: Bool { bos_terminal_has_selection(raw) != 0 }

    /// Sets what Find looks for (a case-insensitive regular expression); false when it is not one.
    @discardableResult public func search(_ pattern: String) -> Bool { bos_terminal_search(raw, pattern) != 0 }
    @discardableResult public func findNext() -> Bool { bos_terminal_find_next(raw) != 0 }
    @discardableResult public func findPrevious() -> Bool { bos_terminal_find_previous(raw) != 0 }

    /// The web address under a point of the widget, if any.
    public func link(atX x: Double, y: Double) -> String? {
        guard let text = bos_terminal_link_at(raw, x, y) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Types `text` as the keyboard would (it leaves through `onInput`). For checks.
    public func type(_ text: String) { bos_terminal_type(raw, text) }

    /// The text on screen (for checks and screen readers' tests).
    public var visibleText: String {
        guard let text = bos_terminal_text(raw) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
