import CGio
import Foundation

/// A thread running its own GLib main context, where every libsoup object lives. Keeping soup off
/// the GTK main thread means a slow socket can never stall drawing, and the CLI needs no GTK loop.
/// `shared` serves chat and REST-side sockets; a socket with flow control (a terminal) gets a worker
/// of its own, because its reader waits while the consumer catches up.
final class GLibWorker: @unchecked Sendable {
    static let shared = GLibWorker(name: "builderos-glib")

    let context: OpaquePointer
    private let loop: OpaquePointer
    /// Soup sessions made on this thread (a session belongs to the thread that made it). Worker thread only.
    var soupSessions: [AnyHashable: OpaquePointer] = [:]

    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    init(name: String) {
        GIODefaults.prepare()
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        nonisolated(unsafe) let (context, loop) = (self.context, self.loop)
        let thread = Thread { [self] in
            // Socket work yields to the window: under a flood the main thread needs the cores more.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)  // 0: this thread (Linux keeps a nice value per thread)
            g_main_context_push_thread_default(context)
            g_main_loop_run(loop)
            // Stopped: what this thread made goes with it.
            for session in soupSessions.values { g_object_unref(UnsafeMutableRawPointer(session)) }
            soupSessions = [:]
            g_main_context_pop_thread_default(context)
        }
        thread.name = name
        thread.start()
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Runs `body` on the worker thread, in order with every other job (or once `seconds` have passed).
    func run(after seconds: Double? = nil, _ body: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let source = seconds.map { g_timeout_source_new(UInt32(max(0, $0) * 1000)) } ?? g_idle_source_new()
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        g_source_set_callback(
            source,
            { data in
                Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue().body()
                return 0  // G_SOURCE_REMOVE
            }, job, { data in Unmanaged<Job>.fromOpaque(data!).release() })
        g_source_attach(source, context)
        g_source_unref(source)
    }

    /// Ends the thread once the jobs queued so far have run (a worker of one socket, when it closes).
    func stop() {
        nonisolated(unsafe) let loop = self.loop
        run { g_main_loop_quit(loop) }
    }
}

/// Maps a GError from GIO, the resolver, TLS or libsoup to the client's error.
enum GErrorMapping {
    static func map(_ error: UnsafeMutablePointer<GError>?, host: String) -> BuilderOSError {
        guard let error else { return .other(detail: "unknown GLib error") }
        let domain = error.pointee.domain, code = error.pointee.code
        if domain == g_resolver_error_quark() { return .hostNotFound(host: host) }
        if domain == g_tls_error_quark() { return .tlsFailure(.unknown) }
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

/// GLib 2.74 can deadlock when one thread makes GIO's default VFS while another loads a GIO module
/// that needs it (a soup connection's proxy resolver reads GSettings, which makes a file, which waits
/// for the VFS, while the VFS waits for the module lock the first holds). Made once, before any thread
/// that might load a module, the VFS is never made concurrently.
enum GIODefaults {
    static func prepare() { _ = once }
    private static let once: Void = { _ = g_vfs_get_default() }()
}
