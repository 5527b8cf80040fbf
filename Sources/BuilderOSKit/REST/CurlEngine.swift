import CShims
import Foundation
import Synchronization

/// Runs every REST transfer on one `curl_multi` handle, on its own thread. The multi handle keeps
/// a connection cache, so consecutive calls to a server reuse the connection. Callers `await` a
/// transfer; nothing here ever runs on (or blocks) the GTK main thread.
final class CurlEngine: @unchecked Sendable {
    /// libcurl is loaded (`bos_curl_load`) when the first request is made, on the caller's thread,
    /// never at start-up; nil when it cannot be loaded.
    static let shared = CurlEngine()

    /// Why `shared` is nil.
    static var unavailable: BuilderOSError { .other(detail: "libcurl could not be loaded: " + String(cString: bos_curl_load_error())) }

    /// Loads libcurl on a thread of its own, at a low priority, so that a request made a moment later
    /// finds it loaded. The engine (and its thread) is made by the first request, not by this thread.
    static func loadInBackground() { Thread.detachNewThread { _ = bos_curl_load_at_low_priority() } }

    private struct Queue {
        var incoming: [CurlTransfer] = []
        var cancelled: [ObjectIdentifier] = []
    }

    private let multi: UnsafeMutableRawPointer
    private let queue = Mutex(Queue())
    // Owned by the curl thread.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    /// `maxConnections` bounds the kept-alive connection cache (least recently used go first).
    /// Nil when libcurl cannot be loaded.
    init?(maxConnections: Int = 16) {
        guard bos_curl_load() != 0, let multi = bos_curl_multi_init() else { return nil }
        self.multi = multi
        bos_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxConnections)
        let thread = Thread { [unowned self] in
            bos_name_this_thread("builderos-curl")
            self.loop()
        }
        thread.start()
    }

    /// Performs `request`; throws `BuilderOSError` (or `CancellationError` when the task is cancelled).
    func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transfer = try CurlTransfer(request: request)
        let id = ObjectIdentifier(transfer)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.attach(continuation)
                if Task.isCancelled {
                    transfer.finish(.failure(CancellationError()))
                    return
                }
                queue.withLock { $0.incoming.append(transfer) }
                bos_curl_multi_wakeup(multi)
            }
        } onCancel: {
            queue.withLock { $0.cancelled.append(id) }
            transfer.finish(.failure(CancellationError()))
            bos_curl_multi_wakeup(multi)
        }
    }

    private func loop() {
        var running: Int32 = 0
        while true {
            let (incoming, cancelled) = queue.withLock { q -> ([CurlTransfer], [ObjectIdentifier]) in
                defer { q.incoming = []; q.cancelled = [] }
                return (q.incoming, q.cancelled)
            }
            for transfer in incoming {
                active[transfer.easy] = transfer
                bos_curl_multi_add_handle(multi, transfer.easy)
            }
            for id in cancelled {
                if let (easy, _) = active.first(where: { ObjectIdentifier($0.value) == id }) {
                    bos_curl_multi_remove_handle(multi, easy)
                    active[easy] = nil
                }
            }
            bos_curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = bos_curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                bos_curl_multi_remove_handle(multi, easy)
                if let transfer = active.removeValue(forKey: easy) {
                    transfer.finish(transfer.outcome(code: code))
                }
            }
            // Sleeps until a socket is ready, a timeout is due, or `curl_multi_wakeup` is called.
            bos_curl_multi_poll(multi, 1000)
        }
    }
}
