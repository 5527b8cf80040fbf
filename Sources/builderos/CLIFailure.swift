import BuilderOSKit

/// A failure that ends the command with its documented exit code.
struct CLIFailure: Error {
    let error: BuilderOSError
    var showFixIt = true

    /// 0 ok, 1 other, 2 usage, 3 not logged in, 4 unreachable, 5 key rejected, 6 not available.
    var exitCode: Int32 {
        switch error {
        case .invalidServerAddress, .invalidAPIKey, .serverNameTaken: return 2
        case .notSignedIn, .unknownServer: return 3
        case .hostNotFound, .connectionRefused, .networkUnreachable, .tlsFailure, .timedOut, .connectionLost, .tunnelError:
            return 4
        case .unauthorized: return 5
        case .notAvailableOnServer: return 6
        default: return 1
        }
    }

    /// The CLI's own advice where the shared sentence speaks of the app's setup.
    var fixIt: String? {
        guard showFixIt else { return nil }
        if error == .notSignedIn { return L("Sign in first: builderos login --server URL") }
        return error.fixIt
    }

    static func wrap(_ error: any Error) -> CLIFailure {
        if let failure = error as? CLIFailure { return failure }
        return CLIFailure(error: (error as? BuilderOSError) ?? .other(detail: String(describing: error)))
    }
}

/// A usage problem found after parsing (exit 2).
struct UsageFailure: Error, CustomStringConvertible {
    let description: String
}
