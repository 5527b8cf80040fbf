/// Every failure the client can meet, from the keyring to the socket. Views never format errors
/// themselves: they show `userMessage` (and, where useful, `fixIt`) from `UserFacingError`.
public enum BuilderOSError: Error, Sendable, Equatable {
    // Address
    case invalidServerAddress(ServerAddressProblem)
    // Transport
    case hostNotFound(host: String)
    case connectionRefused
    case networkUnreachable
    /// The TLS handshake failed; `TLSProblem` says what was wrong with the certificate.
    case tlsFailure(TLSProblem)
    case timedOut
    case connectionLost
    case cancelled
    // HTTP
    case unauthorized
    case notAvailableOnServer
    case payloadTooLarge
    case serverError(status: Int, message: String?)
    case tunnelError(status: Int)
    /// A 3xx answer. Never followed: the key goes only to the configured address. `location` is
    /// where it pointed (absolute, shown escaped), nil when the server did not say.
    case redirected(status: Int, location: String?)
    case malformedResponse
    case responseTooLarge
    /// A chat reply grew past `ChatConfiguration.maxReplyBytes`; what arrived before is kept.
    case replyTooLarge(limitBytes: Int)
    /// The server closed the connection every time this message was sent, before replying.
    case closedOnMessage(attempts: Int)
    /// The server accepted a message, then sent nothing for this many seconds.
    case replyDeadlinePassed(seconds: Int)
    // Requests
    case fileTooLarge(bytes: Int64)
    case fileUnreadable(path: String)
    case serverRefused(message: String)
    case fileUnwritable(path: String)
    // History
    case historyImportRefused(HistoryImportProblem)
    // Credentials
    case secretServiceUnavailable
    case keyringLocked
    case notSignedIn
    case invalidAPIKey(APIKeyProblem)
    // The server list
    case serverAlreadyAdded(name: String)
    case unknownServer(String)
    case serverNameTaken(String)
    // Anything else, with a detail that never contains the key.
    case other(detail: String)

    /// A chat socket that failed this way does not reconnect by itself: trying again cannot help without the user
    /// (a rejected key, or one that cannot be sent).
    public var stopsReconnecting: Bool {
        switch self {
        // The keyring's answers: a session's key is looked up once, so trying again changes nothing.
        case .unauthorized, .invalidAPIKey, .notSignedIn, .secretServiceUnavailable, .keyringLocked: return true
        default: return false
        }
    }

    /// Transport errors and gateway statuses are worth retrying; everything else is final.
    public var isTransient: Bool {
        switch self {
        case .connectionRefused, .networkUnreachable, .timedOut, .connectionLost: return true
        case .serverError(let status, _), .tunnelError(let status): return [502, 503, 504].contains(status)
        default: return false
        }
    }
}
