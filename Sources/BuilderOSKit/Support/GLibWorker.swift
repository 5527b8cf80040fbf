import CSoup
import Foundation

/// A thread running its own GLib main context, where every libsoup object lives. Keeping soup off
/// the GTK main thread means a slow socket can never stall drawing, and the CLI needs no GTK loop.
final class GLibWorker: @unchecked Sendable {
    static let shared = GLibWorker()

    let context: OpaquePointer

    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private init() {
        context = g_main_context_new()
        nonisolated(unsafe) let context = self.context
        let thread = Thread {
            g_main_context_push_thread_default(context)
            let loop = g_main_loop_new(context, 0)
            g_main_loop_run(loop)
        }
        thread.name = "builderos-glib"
        thread.start()
    }

    /// Runs `body` on the worker thread, in order with every other job (or once `seconds` have passed).
    func run(after seconds: Double? = nil, _ body: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let source = seconds.map { g_timeout_source_new(UInt32(max(0, $0) * 1000)) } ?? g_idle_source_new()
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        g_source_set_callback(source, { data in
            Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue().body()
            return 0  // G_SOURCE_REMOVE
        }, job, { data in Unmanaged<Job>.fromOpaque(data!).release() })
        g_source_attach(source, context)
        g_source_unref(source)
    }
}

/// Maps a GError from GIO, the resolver, TLS or libsoup to the client's error.
enum GErrorMapping {
    static func map(_ error: UnsafeMutablePointer<GError>?, host: String) -> BuilderOSError {
        guard let error else { return .other(detail: "unknown GLib error") }
        let domain = error.pointee.domain, code = error.pointee.code
        if domain == g_resolver_error_quark() { return .hostNotFound(host: host) }
        if domain == g_tls_error_quark() { return .tlsFailure }
        if domain == g_io_error_quark() {
            switch GIOErrorEnum(rawValue: UInt32(code)) {
            case G_IO_ERROR_CONNECTION_REFUSED: return .connectionRefused
            case G_IO_ERROR_TIMED_OUT: return .timedOut
            case G_IO_ERROR_CANCELLED: return .cancelled
            case G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE: return .networkUnreachable
            case G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_PARTIAL_INPUT: return .connectionLost
            case G_IO_ERROR_NOT_FOUND: return .hostNotFound(host: host)
            default: break
            }
        }
        return .other(detail: String(cString: error.pointee.message))
    }
}
