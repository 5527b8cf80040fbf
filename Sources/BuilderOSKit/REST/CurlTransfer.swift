import CShims
import Foundation
import Synchronization

/// One transfer on the curl thread: the easy handle, its buffers, and the continuation to resume.
final class CurlTransfer: @unchecked Sendable {
    // Only the curl thread touches these after `start`.
    let easy: UnsafeMutableRawPointer
    var body = Data()
    var contentType: String?
    var exceededCap = false
    let request: HTTPRequest
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var mime: OpaquePointer?
    private var cStrings: [UnsafeMutablePointer<CChar>] = []
    /// curl's sentence for a failed transfer (CURLOPT_ERRORBUFFER, CURL_ERROR_SIZE bytes).
    private let errorText: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
        buffer.initialize(repeating: 0, count: 256)
        return buffer
    }()

    private let continuation = Mutex<CheckedContinuation<HTTPResponse, any Error>?>(nil)

    init(request: HTTPRequest) throws(BuilderOSError) {
        guard let easy = bos_curl_easy_init() else { throw .other(detail: "curl_easy_init failed") }
        self.easy = easy
        self.request = request
        try configure()
    }

    deinit {
        if let mime { bos_curl_mime_free(mime) }
        bos_curl_slist_free_all(headerList)
        cStrings.forEach { free($0) }
        errorText.deallocate()
        bos_curl_easy_cleanup(easy)
    }

    func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Resumes the waiting task exactly once, whichever of completion and cancellation comes first.
    func finish(_ result: Result<HTTPResponse, any Error>) {
        let waiting = continuation.withLock { value -> CheckedContinuation<HTTPResponse, any Error>? in
            defer { value = nil }
            return value
        }
        waiting?.resume(with: result)
    }

    private func keep(_ s: String) -> UnsafeMutablePointer<CChar> {
        let p = strdup(s)!
        cStrings.append(p)
        return p
    }

    private func configure() throws(BuilderOSError) {
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        bos_curl_setopt_ptr(easy, CURLOPT_URL, keep(request.url))
        bos_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        bos_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
        bos_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(request.totalTimeout * 1000))
        // TLS peer and host verification are always on; an extra CA file adds to the system store.
        bos_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        bos_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        // The certificate's details, for saying why a handshake failed (`TLSProblem`).
        bos_curl_setopt_long(easy, CURLOPT_CERTINFO, 1)
        bos_curl_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorText)
        if let ca = request.extraCAFile {
            bos_curl_setopt_ptr(easy, CURLOPT_CAINFO, keep(ca))
            bos_curl_setopt_ptr(easy, CURLOPT_CAPATH, keep("/etc/ssl/certs"))
        }
        bos_curl_setopt_ptr(easy, CURLOPT_USERAGENT, keep("BuilderOS-Desktop/\(BuilderOSKit.version)"))
        bos_curl_setopt_ptr(easy, CURLOPT_ACCEPT_ENCODING, keep(""))
        bos_curl_setopt_long(easy, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
        // Redirects are never followed (curl's default, stated here because the key rides on every request):
        // a 3xx becomes `BuilderOSError.redirected`, naming where it pointed.
        bos_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        bos_curl_setopt_ptr(easy, CURLOPT_WRITEDATA, opaque)
        bos_curl_setopt_data_cb(easy, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
            let length = size * count
            if transfer.body.count + length > transfer.request.maxResponseBytes {
                transfer.exceededCap = true
                if transfer.request.keepsTruncatedBody {
                    let room = transfer.request.maxResponseBytes - transfer.body.count
                    transfer.body.append(UnsafeRawPointer(data!).assumingMemoryBound(to: UInt8.self), count: room)
                }
                return 0  // makes curl stop with CURLE_WRITE_ERROR
            }
            transfer.body.append(UnsafeRawPointer(data!).assumingMemoryBound(to: UInt8.self), count: length)
            return length
        }
        for (name, value) in request.headers {
            headerList = bos_curl_slist_append(headerList, "\(name): \(value)")
        }
        switch request.body {
        case .none:
            if request.method == .post {
                bos_curl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0); bos_curl_setopt_ptr(easy, CURLOPT_POSTFIELDS, keep(""))
            }
        case .bytes(let data, let contentType):
            headerList = bos_curl_slist_append(headerList, "Content-Type: \(contentType)")
            bos_curl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(data.count))
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(data.count, 1))
            data.withUnsafeBytes { raw in if data.count > 0 { memcpy(copy, raw.baseAddress!, data.count) } }
            cStrings.append(copy)
            bos_curl_setopt_ptr(easy, CURLOPT_POSTFIELDS, copy)
        case .multipartFile(let path, let filename, let mimeType, let fields):
            let mime = bos_curl_mime_init(easy)
            self.mime = mime
            let part = bos_curl_mime_addpart(mime)
            bos_curl_mime_name(part, "file")
            guard bos_curl_mime_filedata(part, path) == CURLE_OK else { throw .fileUnreadable(path: path) }
            bos_curl_mime_filename(part, filename)
            bos_curl_mime_type(part, mimeType)
            for (name, value) in fields {
                let field = bos_curl_mime_addpart(mime)
                bos_curl_mime_name(field, name)
                bos_curl_mime_data(field, value, Int(CURL_ZERO_TERMINATED))
            }
            bos_curl_setopt_ptr(easy, CURLOPT_MIMEPOST, UnsafeRawPointer(mime))
            if request.uploadProgress != nil {
                bos_curl_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
                bos_curl_setopt_ptr(easy, CURLOPT_XFERINFODATA, opaque)
                bos_curl_setopt_xferinfo_cb(easy) { user, _, _, total, sent in
                    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
                    transfer.request.uploadProgress?(Int64(sent), Int64(total))
                    return 0
                }
            }
        }
        if request.method != .get && request.method != .post {
            bos_curl_setopt_ptr(easy, CURLOPT_CUSTOMREQUEST, keep(request.method.rawValue))
        } else if request.method == .post, case .none = request.body {
            bos_curl_setopt_long(easy, CURLOPT_POST, 1)
        }
        bos_curl_setopt_ptr(easy, CURLOPT_HTTPHEADER, headerList)
    }

    /// What the certificate's verification said, and the names the certificate is for (curl keeps
    /// the chain's details when asked, also after its own host-name check failed).
    private func tlsProblem(code: CURLcode, host: String) -> TLSProblem {
        var result = 0
        bos_curl_getinfo_long(easy, CURLINFO_SSL_VERIFYRESULT, &result)
        // curl's own sentence names the certificate's subject when the name does not match.
        let said = String(cString: errorText)
        var names: [String] = TLSProblem.subjectName(inCurlError: said).map { [$0] } ?? []
        var info: UnsafeMutableRawPointer?
        bos_curl_getinfo_ptr(easy, CURLINFO_CERTINFO, &info)
        if let chain = info?.assumingMemoryBound(to: curl_certinfo.self).pointee, chain.num_of_certs > 0, let leaf = chain.certinfo[0] {
            var entry: UnsafeMutablePointer<curl_slist>? = leaf
            while let current = entry {
                let line = String(cString: current.pointee.data)
                let key = "X509v3 Subject Alternative Name:"
                if line.hasPrefix(key) { names = TLSProblem.names(fromSubjectAltNames: String(line.dropFirst(key.count))) }
                entry = current.pointee.next
            }
        }
        let hostNameCheckFailed = code == CURLE_PEER_FAILED_VERIFICATION
        if bos_curl_is_gnutls() != 0 {
            return TLSProblem.fromGnuTLS(
                status: UInt32(truncatingIfNeeded: result), hostNameCheckFailed: hostNameCheckFailed, host: host, names: names)
        }
        return TLSProblem.fromOpenSSL(result: result, hostNameCheckFailed: hostNameCheckFailed, host: host, names: names)
    }

    /// Builds the response or the error once curl reports the transfer done.
    func outcome(code: CURLcode) -> Result<HTTPResponse, any Error> {
        if code != CURLE_OK, !(exceededCap && request.keepsTruncatedBody) {
            if exceededCap { return .failure(BuilderOSError.responseTooLarge) }
            let host = URLComponents(string: request.url)?.host ?? ""
            let error = CurlErrorMapping.map(code, host: host)
            if case .tlsFailure = error { return .failure(BuilderOSError.tlsFailure(tlsProblem(code: code, host: host))) }
            return .failure(error)
        }
        var status = 0
        bos_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var total = 0.0
        bos_curl_getinfo_double(easy, CURLINFO_TOTAL_TIME, &total)
        var type: UnsafeMutableRawPointer?
        bos_curl_getinfo_ptr(easy, CURLINFO_CONTENT_TYPE, &type)
        let contentType = type.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        var connects = 0
        bos_curl_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        var redirect: UnsafeMutableRawPointer?
        bos_curl_getinfo_ptr(easy, CURLINFO_REDIRECT_URL, &redirect)
        let location = redirect.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        return .success(
            HTTPResponse(
                status: status, contentType: contentType, body: body, totalTime: total,
                connectionsOpened: connects, location: location))
    }
}

enum CurlErrorMapping {
    static func map(_ code: CURLcode, host: String) -> BuilderOSError {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .hostNotFound(host: host)
        case CURLE_COULDNT_CONNECT: return .connectionRefused
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .tlsFailure(.unknown)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionLost
        case CURLE_READ_ERROR: return .other(detail: "the file could not be read while sending")
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        default: return .other(detail: String(cString: bos_curl_easy_strerror(code)))
        }
    }
}
