import CGtk

/// The one application-wide CSS provider. Loading replaces its contents (e.g. on a theme
/// change); it is attached to the default display once.
@MainActor
public final class ApplicationStyle {
    public static let shared = ApplicationStyle()

    private let provider = ObjectRef(adopting: UnsafeMutableRawPointer(gtk_css_provider_new()))
    private var attached = false
    private var errors: [String] = []
    private var connection: SignalConnection?

    private init() {
        connection = Signals.connect(
            provider.pointer, "parsing-error",
            withTwoArguments: { [weak self] _, error in
                let message = error.map { String(cString: $0.assumingMemoryBound(to: GError.self).pointee.message) }
                self?.errors.append(message ?? "parsing error")
            })
    }

    /// The sheet parsed by `prepare`, until `load` is given it; and whether `load` used it as parsed.
    private var prepared: String?
    public private(set) var preparedUsed = false

    /// Parses `css` before GTK starts, in time the main thread would spend waiting (as
    /// `GtkTheme.prepare`): `load` given the same sheet then only attaches it.
    public func prepare(_ css: String) {
        parse(css)
        prepared = css
    }

    /// Loads `css`; returns the parsing errors GTK reported (none for our generated sheets).
    @discardableResult
    public func load(_ css: String) -> Int {
        if css == prepared {
            preparedUsed = true
        } else {
            parse(css)
        }
        prepared = nil
        LazyColumn.stylesChanged()
        if !attached, let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider.pointer), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
            attached = true
        }
        return errors.count
    }

    private func parse(_ css: String) {
        errors = []
        gtk_css_provider_load_from_data(provider.typed(GtkCssProvider.self), css, -1)
    }
}
