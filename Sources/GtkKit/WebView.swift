import CGtk
import CWebView

/// A WebKitGTK 6.0 view, loaded on first use (`WebView.load()`), never before: the app does not link
/// WebKit, so a window without a web view pays nothing for it. Events arrive as values on the main
/// thread; where a navigation may go is the owner's decision (`policy`).
@MainActor
public final class WebView {
    public enum Event: Equatable {
        case started, redirected, committed, finished
        /// A load failed: the GError's domain name, code and message, and the address that failed.
        case failed(uri: String, domain: String, code: Int, message: String)
        /// The page's web process ended.
        case processEnded
    }

    /// Loads libwebkitgtk-6.0 (once). Returns nil when it is there, dlerror()'s text otherwise.
    public static func load() -> String? {
        var error: UnsafePointer<CChar>?
        return bos_webview_load(&error) != 0 ? nil : error.map { String(cString: $0) } ?? "libwebkitgtk-6.0 could not be loaded"
    }

    /// Whether WebKit is in this process (it must not be before the first web view).
    public static var isLoaded: Bool { bos_webview_is_loaded() != 0 }

    public let widget: Widget

    private final class Handlers {
        let policy: @MainActor (String, Bool) -> Bool
        let events: @MainActor (Event) -> Void
        init(policy: @escaping @MainActor (String, Bool) -> Bool, events: @escaping @MainActor (Event) -> Void) {
            (self.policy, self.events) = (policy, events)
        }
    }

    /// Call `load()` first. `policy(uri, newWindow)` answers whether the view may go there.
    public init(
        policy: @escaping @MainActor (_ uri: String, _ newWindow: Bool) -> Bool,
        events: @escaping @MainActor (Event) -> Void
    ) {
        precondition(WebView.isLoaded, "WebView.load() must succeed first")
        widget = bos_webview_new()!.assumingMemoryBound(to: GtkWidget.self)
        let user = Unmanaged.passRetained(Handlers(policy: policy, events: events)).toOpaque()
        bos_webview_connect(
            UnsafeMutableRawPointer(widget),
            { uri, newWindow, user in
                let handlers = Unmanaged<Handlers>.fromOpaque(user!).takeUnretainedValue()
                return MainActor.assumeIsolated { handlers.policy(String(cString: uri!), newWindow != 0) ? 1 : 0 }
            },
            { event, uri, domain, code, message, user in
                let handlers = Unmanaged<Handlers>.fromOpaque(user!).takeUnretainedValue()
                let value: Event
                switch event {
                case Int32(BOS_WEBVIEW_STARTED.rawValue): value = .started
                case Int32(BOS_WEBVIEW_REDIRECTED.rawValue): value = .redirected
                case Int32(BOS_WEBVIEW_COMMITTED.rawValue): value = .committed
                case Int32(BOS_WEBVIEW_FINISHED.rawValue): value = .finished
                case Int32(BOS_WEBVIEW_FAILED.rawValue):
                    value = .failed(
                        uri: uri.map { String(cString: $0) } ?? "", domain: domain.map { String(cString: $0) } ?? "",
                        code: Int(code), message: message.map { String(cString: $0) } ?? "")
                default: value = .processEnded
                }
                MainActor.assumeIsolated { handlers.events(value) }
            }, user, { user in Unmanaged<Handlers>.fromOpaque(user!).release() })
    }

    private var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(widget) }

    public func load(uri: String) { bos_webview_load_uri(raw, uri) }
    public func goBack() { bos_webview_go_back(raw) }
    public func goForward() { bos_webview_go_forward(raw) }
    public func reload() { bos_webview_reload(raw) }
    public func stop() { bos_webview_stop(raw) }
    public var canGoBack: Bool { bos_webview_can_go_back(raw) != 0 }
    public var canGoForward: Bool { bos_webview_can_go_forward(raw) != 0 }
    public var isLoading: Bool { bos_webview_is_loading(raw) != 0 }
    public var title: String? { bos_webview_title(raw).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
    public var uri: String? { bos_webview_uri(raw).map { String(cString: $0) } }
    public var progress: Double { bos_webview_progress(raw) }

    /// Calls `handler` whenever one of the view's properties changes (`notify::<name>`).
    @discardableResult
    public func onChange(of property: String, _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        Signals.connect(raw, "notify::\(property)", withArgument: { _ in handler() })
    }
}
