/// The connection test's steps, in the order they run and are shown.
public enum ConnectionTestStep: Int, Sendable, CaseIterable, Comparable {
    case reachability, key, versionAndLatency, systemFeatures

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var title: String {
        switch self {
        case .reachability: return L("Reaching the server")
        case .key: return L("Checking the API key")
        case .versionAndLatency: return L("Measuring version and latency")
        case .systemFeatures: return L("Looking for system features")
        }
    }
}

/// How a step ended.
public enum ConnectionTestOutcome: Sendable, Equatable {
    case running
    case passed(detail: String)
    /// Passed, with something the user should know (e.g. capsules are not available here).
    case passedWithNote(String)
    case failed(BuilderOSError)
    /// Not run because an earlier step failed.
    case skipped

    public var isFailure: Bool { if case .failed = self { return true } else { return false } }
}

/// The structured result: every step's outcome plus what was measured.
public struct ConnectionReport: Sendable, Equatable {
    public var outcomes: [ConnectionTestStep: ConnectionTestOutcome] = [:]
    public var version: String?
    /// Median of three `GET /api/status` round trips, in milliseconds.
    public var latencyMilliseconds: Double?
    /// True when the system server (capsules, power) answers; false on 404; nil when unknown.
    public var systemAvailable: Bool?

    public init() {}

    public var passed: Bool { ConnectionTestStep.allCases.allSatisfy { !(outcomes[$0]?.isFailure ?? true) && outcomes[$0] != .skipped } }

    /// The first failure and its fix-it sentence, for the UI's error box and the CLI's message.
    public var firstFailure: (step: ConnectionTestStep, error: BuilderOSError)? {
        for step in ConnectionTestStep.allCases {
            if case .failed(let error) = outcomes[step] { return (step, error) }
        }
        return nil
    }
}
