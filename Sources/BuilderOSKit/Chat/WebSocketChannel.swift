import CSoup
import Foundation
import Synchronization

/// What a WebSocket reports, in order.
public enum WebSocketEvent: Sendable, Equatable {
    case text(String)
    /// A binary frame (the terminal socket's PTY bytes).
    case binary(Data)
    case closed(code: Int)
}

/// One libsoup WebSocket connection (ws or wss). All soup calls run on a `GLibWorker`; events arrive
/// in order on `events`. The stream ends when the socket closes.
///
/// With a receive window (the terminal), the reader runs at most that many bytes ahead of what the
/// consumer reports shown (`shown`), on a worker of its own: it waits there, so nothing else waits.
final class WebSocketChannel: @unchecked Sendable {
    let events: AsyncStream<WebSocketEvent>
    private let continuation: AsyncStream<WebSocketEvent>.Continuation
    fileprivate let worker: GLibWorker
    private let window: ReceiveWindow?
    // Owned by the worker thread.
    private var connection: OpaquePointer?
    private var handlerIDs: [UInt] = []
    private var closeStarted = false
    /// Asked for from any thread. Once set, what still arrives is dropped, not queued (a server streaming
    /// without end must not fill memory while the close frame is under way).
    private let closeRequest = Mutex<CloseRequest?>(nil)
    /// Frames to send, in order; the worker sends them (also from inside a flow-control wait, so a
    /// Ctrl-C gets out while a flood is being held back).
    private let outbox = Mutex<[Outgoing]>([])

    private enum CloseRequest { case close(UInt16), abort }
    private enum Outgoing { case text(String), binary(Data) }

    /// A frame whose header announces more is refused before its payload is read (libsoup closes
    /// with 1009, "too big"): a hostile server's one huge frame must not be buffered whole.
    private let maxFrameBytes: Int
    /// Set on the worker when libsoup refused a frame over `maxFrameBytes`.
    private var refusedFrame = false
    /// The close code of a socket that ended on a frame over the cap (WebSocket's "message too big").
    static let closedTooBig = Int(BOS_SOUP_WEBSOCKET_CLOSE_TOO_BIG)

    private init(receiveWindow: Int?, maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
        (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self, bufferingPolicy: .unbounded)
        window = receiveWindow.map(ReceiveWindow.init(limit:))
        worker = window == nil ? .shared : GLibWorker(name: "builderos-socket")
    }

    /// Opens a socket to `url` (ws:// or wss://). Failures to connect or upgrade are mapped
    /// like REST failures: a 502 HTML page is a tunnel error, 401 a rejected key, and so on.
    /// `receiveWindow`: bytes the reader may run ahead of `shown` (nil: no flow control).
    /// `maxFrameBytes`: the largest frame accepted (see `maxFrameBytes`).
    static func connect(
        url: String, host: String, configuration: ClientConfiguration, pingInterval: UInt32,
        receiveWindow: Int? = nil, maxFrameBytes: Int = 16 << 20
    ) async throws(BuilderOSError) -> WebSocketChannel {
        let channel = WebSocketChannel(receiveWindow: receiveWindow, maxFrameBytes: maxFrameBytes)
        let attempt = ConnectAttempt(channel: channel, host: host, pingInterval: pingInterval)
        let worker = channel.worker
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    attempt.continuation = continuation
                    worker.run { attempt.start(url: url, configuration: configuration) }
                }
            } onCancel: {
                worker.run { attempt.cancel() }
            }
        } catch let error as BuilderOSError {
            channel.stopOwnWorker()
            throw error
        } catch {
            channel.stopOwnWorker()
            throw .cancelled
        }
        return channel
    }

    func send(_ text: String) { enqueue(.text(text)) }

    func send(binary bytes: Data) { enqueue(.binary(bytes)) }

    /// The consumer has shown `count` bytes of what arrived (channels with a receive window).
    func shown(_ count: Int) { window?.release(count) }

    func close(code: UInt16 = UInt16(BOS_SOUP_WEBSOCKET_CLOSE_NORMAL)) { request(.close(code)) }

    /// Ends the connection at once, without waiting for the peer's close frame: for a peer that floods
    /// (a reply past its cap), where every moment spent closing politely is more data to read.
    func abort() { request(.abort) }

    private func enqueue(_ item: Outgoing) {
        outbox.withLock { $0.append(item) }
        worker.run { [self] in flushOutbox() }
        window?.wake()
    }

    private func request(_ close: CloseRequest) {
        closeRequest.withLock { if $0 == nil { $0 = close } }
        window?.close()
        worker.run { [self] in performRequestedClose() }
    }

    // MARK: Worker-thread side

    private func flushOutbox() {
        let items = outbox.withLock { items in
            defer { items = [] }; return items
        }
        guard let connection, bos_soup_websocket_connection_get_state(connection) == Int32(BOS_SOUP_WEBSOCKET_STATE_OPEN) else { return }
        for item in items {
            switch item {
            case .text(let text): bos_soup_websocket_connection_send_text(connection, text)
            case .binary(let bytes): bytes.withUnsafeBytes { bos_soup_websocket_connection_send_binary(connection, $0.baseAddress, gsize($0.count)) }
            }
        }
    }

    /// Runs from a queued job, or from the message handler when a close was asked for mid-read (a
    /// flood keeps libsoup's read loop going, and queued jobs wait for it).
    private func performRequestedClose() {
        guard let request = closeRequest.withLock({ $0 }), let connection, !closeStarted else { return }
        closeStarted = true
        switch request {
        case .abort:
            g_io_stream_close(bos_soup_websocket_connection_get_io_stream(connection), nil, nil)
            finish(code: Int(BOS_SOUP_WEBSOCKET_CLOSE_TOO_BIG))
        case .close(let code):
            if bos_soup_websocket_connection_get_state(connection) == Int32(BOS_SOUP_WEBSOCKET_STATE_OPEN) {
                bos_soup_websocket_connection_close(connection, code, nil)
                // A peer that never answers the close frame (stuck, or half-open) must not keep the stream open:
                // libsoup would wait minutes for it. After a second the channel ends on its own side.
                worker.run(after: 1) { [self] in finish(code: Int(code)) }
            } else {
                finish(code: Int(code))
            }
        }
    }

    fileprivate func adopt(_ connection: OpaquePointer, pingInterval: UInt32) {
        self.connection = connection
        bos_soup_websocket_connection_set_keepalive_interval(connection, pingInterval)
        // Replies can be long (a whole answer in one frame): libsoup's default cap is 128 KiB.
        bos_soup_websocket_connection_set_max_incoming_payload_size(connection, guint64(maxFrameBytes))
        let instance = UnsafeMutableRawPointer(connection)
        let onMessage: @convention(c) (OpaquePointer?, Int32, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, type, bytes, user in
            guard let bytes else { return }
            let channel = Unmanaged<WebSocketChannel>.fromOpaque(user!).takeUnretainedValue()
            if channel.closeRequest.withLock({ $0 != nil }) { return channel.performRequestedClose() }
            var size = 0
            let data = g_bytes_get_data(bytes, &size)
            let buffer = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
            if type == Int32(BOS_SOUP_WEBSOCKET_DATA_TEXT) {
                channel.continuation.yield(.text(String(decoding: buffer, as: UTF8.self)))
            } else {
                channel.continuation.yield(.binary(Data(buffer)))
            }
            channel.window?.admit(size) { channel.flushOutbox() }
            channel.flushOutbox()
        }
        let onClosed: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { connection, user in
            let channel = Unmanaged<WebSocketChannel>.fromOpaque(user!).takeUnretainedValue()
            let code = channel.refusedFrame ? WebSocketChannel.closedTooBig : Int(bos_soup_websocket_connection_get_close_code(connection))
            channel.finish(code: code)
        }
        // libsoup closes at once on a frame over the cap, with no close code from the peer: its error says so.
        let onError: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void = { _, error, user in
            guard let error, error.pointee.domain == g_quark_try_string("soup-websocket-error-quark"),
                Int(error.pointee.code) == WebSocketChannel.closedTooBig
            else { return }
            Unmanaged<WebSocketChannel>.fromOpaque(user!).takeUnretainedValue().refusedFrame = true
        }
        // Each handler holds a reference to the channel, released by GLib when the handler goes.
        for (signal, callback) in [
            ("message", unsafeBitCast(onMessage, to: GCallback.self)),
            ("closed", unsafeBitCast(onClosed, to: GCallback.self)),
            ("error", unsafeBitCast(onError, to: GCallback.self)),
        ] {
            let user = Unmanaged.passRetained(self).toOpaque()
            handlerIDs.append(
                g_signal_connect_data(
                    instance, signal, callback, user,
                    { user, _ in
                        Unmanaged<WebSocketChannel>.fromOpaque(user!).release()
                    }, GConnectFlags(rawValue: 0)))
        }
    }

    /// Ends the event stream and drops the connection; safe to call twice.
    fileprivate func finish(code: Int) {
        guard let connection else { return }
        self.connection = nil
        for id in handlerIDs { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), id) }
        handlerIDs = []
        continuation.yield(.closed(code: code))
        continuation.finish()
        // Released from a job of its own, not here: an abort may run inside the connection's own "message"
        // signal, and libsoup's read loop goes on using the connection after the handler returns.
        nonisolated(unsafe) let released = connection
        worker.run { g_object_unref(UnsafeMutableRawPointer(released)) }
        window?.close()
        stopOwnWorker()
    }

    /// A socket's own worker ends with it; the shared one never does.
    private func stopOwnWorker() {
        if worker !== GLibWorker.shared { worker.stop() }
    }
}

/// The state of one connection attempt, kept alive by the soup callback until it completes.
private final class ConnectAttempt: @unchecked Sendable {
    let channel: WebSocketChannel
    let host: String
    let pingInterval: UInt32
    var continuation: CheckedContinuation<Void, any Error>?
    var session: OpaquePointer?
    var message: OpaquePointer?
    var cancellable: UnsafeMutablePointer<GCancellable>?

    init(channel: WebSocketChannel, host: String, pingInterval: UInt32) {
        (self.channel, self.host, self.pingInterval) = (channel, host, pingInterval)
    }

    private var requestURL = ""

    func start(url: String, configuration: ClientConfiguration) {
        requestURL = url
        guard bos_soup_load() != 0 else {
            complete(.failure(BuilderOSError.other(detail: "libsoup could not be loaded: " + String(cString: bos_soup_load_error()))))
            return
        }
        guard let message = bos_soup_message_new("GET", url) else {
            complete(.failure(BuilderOSError.invalidServerAddress(.invalidHost)))
            return
        }
        self.message = message
        watchCertificate(of: message)
        // Never follow a redirect: the key is the first frame, and a 3xx could hand it to another host (or
        // downgrade wss:// to ws://). A redirect fails the connect with `BuilderOSError.redirected`.
        bos_soup_message_add_flags(message, guint(BOS_SOUP_MESSAGE_NO_REDIRECT))
        session = SoupSessionFactory.session(configuration: configuration, on: channel.worker)
        cancellable = g_cancellable_new()
        // The connect timeout covers TCP, TLS and the upgrade.
        let timeout = g_timeout_source_new(UInt32(configuration.connectTimeout * 1000))
        let timeoutUser = Unmanaged.passRetained(self).toOpaque()
        g_source_set_callback(
            timeout,
            { user in
                let attempt = Unmanaged<ConnectAttempt>.fromOpaque(user!).takeUnretainedValue()
                attempt.timedOut = true
                g_cancellable_cancel(attempt.cancellable)
                return 0
            }, timeoutUser, { user in Unmanaged<ConnectAttempt>.fromOpaque(user!).release() })
        g_source_attach(timeout, g_main_context_get_thread_default())
        timeoutSource = timeout
        let user = Unmanaged.passRetained(self).toOpaque()
        bos_soup_session_websocket_connect_async(
            session, message, nil, nil, G_PRIORITY_DEFAULT, cancellable,
            { source, result, user in
                let attempt = Unmanaged<ConnectAttempt>.fromOpaque(user!).takeRetainedValue()
                attempt.finished(result: result)
            }, user)
    }

    var timedOut = false
    var timeoutSource: UnsafeMutablePointer<GSource>?

    /// Worker thread. A cancel that lands after the connect finished (Disconnect as the socket opens) finds
    /// the cancellable already released and does nothing.
    func cancel() {
        guard let cancellable else { return }
        g_cancellable_cancel(cancellable)
    }

    /// What GIO found wrong with the server's certificate, when its verification failed.
    private var certificateProblem: (flags: UInt32, selfSigned: Bool, names: [String])?

    /// Records why the certificate failed verification ("accept-certificate" comes only then) and
    /// refuses it: verification is never switched off.
    private func watchCertificate(of message: OpaquePointer) {
        let callback:
            @convention(c) (OpaquePointer?, UnsafeMutablePointer<GTlsCertificate>?, GTlsCertificateFlags, UnsafeMutableRawPointer?) -> gboolean = {
                _, certificate, flags, user in
                let attempt = Unmanaged<ConnectAttempt>.fromOpaque(user!).takeUnretainedValue()
                attempt.certificateProblem = (flags.rawValue, ConnectAttempt.isSelfSigned(certificate), ConnectAttempt.names(of: certificate))
                return 0
            }
        g_signal_connect_data(
            UnsafeMutableRawPointer(message), "accept-certificate", unsafeBitCast(callback, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
    }

    private static func isSelfSigned(_ certificate: UnsafeMutablePointer<GTlsCertificate>?) -> Bool {
        guard let certificate, let subject = g_tls_certificate_get_subject_name(certificate) else { return false }
        defer { g_free(subject) }
        guard let issuer = g_tls_certificate_get_issuer_name(certificate) else { return false }
        defer { g_free(issuer) }
        return strcmp(subject, issuer) == 0
    }

    private static func names(of certificate: UnsafeMutablePointer<GTlsCertificate>?) -> [String] {
        guard let certificate, let array = g_tls_certificate_get_dns_names(certificate) else { return [] }
        defer { g_ptr_array_unref(array) }
        return (0..<Int(array.pointee.len)).compactMap { index in
            guard let bytes = array.pointee.pdata[index] else { return nil }
            var size = 0
            guard let data = g_bytes_get_data(OpaquePointer(bytes), &size) else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
        }
    }

    private func finished(result: OpaquePointer?) {
        if let timeoutSource { g_source_destroy(timeoutSource); g_source_unref(timeoutSource) }
        var error: UnsafeMutablePointer<GError>?
        let connection = bos_soup_session_websocket_connect_finish(session, result, &error)
        defer {
            if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
            if let cancellable { g_object_unref(cancellable) }
            cancellable = nil
            message = nil
            if let error { g_error_free(error) }
        }
        if let connection {
            channel.adopt(connection, pingInterval: pingInterval)
            complete(.success(()))
            return
        }
        if timedOut { complete(.failure(BuilderOSError.timedOut)); return }
        // A failed upgrade still has the HTTP answer: use it like a REST reply.
        let status = Int(bos_soup_message_get_status(message))
        if status >= 300 {
            let headers = bos_soup_message_get_response_headers(message)
            let type = bos_soup_message_headers_get_content_type(headers).map { String(cString: $0) }
            let location = bos_soup_message_headers_get_one(headers, "Location").map { String(cString: $0) }
            let response = HTTPResponse(
                status: status, contentType: type, body: Data(), totalTime: 0,
                location: location.map { Self.absolute($0, relativeTo: requestURL) })
            complete(.failure(HTTPStatusMapping.error(for: response) ?? .malformedResponse))
            return
        }
        var mapped = GErrorMapping.map(error, host: host)
        if case .tlsFailure = mapped, let problem = certificateProblem {
            mapped = .tlsFailure(TLSProblem.fromGIO(flags: problem.flags, selfSigned: problem.selfSigned, host: host, names: problem.names))
        }
        // Not a WebSocket server at all (e.g. a plain website answering 200).
        if error?.pointee.domain == bos_soup_websocket_error_quark() { complete(.failure(BuilderOSError.malformedResponse)); return }
        complete(.failure(mapped))
    }

    /// A Location header made absolute against the request's URL, as curl reports it for REST.
    static func absolute(_ location: String, relativeTo base: String) -> String {
        URL(string: location, relativeTo: URL(string: base))?.absoluteString ?? location
    }

    private func complete(_ result: Result<Void, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
    }
}

/// Soup sessions on the worker thread, one per distinct TLS and timeout setting (a session's TLS
/// database is fixed once it has connected). Proxies come from the environment; TLS is verified.
enum SoupSessionFactory {
    private struct Key: Hashable {
        var extraCAFile: String?
        var timeout: UInt32
    }

    private static let bundles = Mutex(0)

    /// On `worker`'s thread only.
    static func session(configuration: ClientConfiguration, on worker: GLibWorker) -> OpaquePointer {
        let key = Key(extraCAFile: configuration.extraCAFile, timeout: UInt32(configuration.requestTimeout))
        if let existing = worker.soupSessions[key] { return existing }
        let session = bos_soup_session_new()!
        bos_soup_session_set_timeout(session, UInt32(configuration.requestTimeout))
        bos_soup_session_set_user_agent(session, "BuilderOS-Desktop/\(BuilderOSKit.version)")
        if let ca = configuration.extraCAFile, let database = trustDatabase(addingCAFile: ca) {
            bos_soup_session_set_tls_database(session, database)
            g_object_unref(UnsafeMutableRawPointer(database))
        }
        worker.soupSessions[key] = session
        return session
    }

    /// The system's certificate authorities plus the extra file, as curl uses them. A GLib file
    /// database takes one file and reads it lazily, so both go into a bundle in a private runtime
    /// folder that stays for the life of the process (certificates are public; no secret here).
    private static func trustDatabase(addingCAFile extra: String) -> UnsafeMutablePointer<GTlsDatabase>? {
        let system = (try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)) ?? ""
        guard let added = try? String(contentsOfFile: extra, encoding: .utf8) else { return nil }
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory()
        let folder = URL(fileURLWithPath: base).appendingPathComponent("builderos-desktop-\(getuid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let number = bundles.withLock { count in
            defer { count += 1 }; return count
        }
        let bundle = folder.appendingPathComponent("ca-bundle-\(getpid())-\(number).pem")
        guard (try? (system + "\n" + added).write(to: bundle, atomically: true, encoding: .utf8)) != nil else { return nil }
        var error: UnsafeMutablePointer<GError>?
        let database = g_tls_file_database_new(bundle.path, &error)
        if let error { g_error_free(error) }
        return database
    }
}
