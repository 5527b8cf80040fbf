/// The setup wizard's five steps, in order.
public enum SetupStep: Int, Sendable, CaseIterable, Comparable {
    case welcome, server, apiKey, test, done

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// 1-based, for "Step 2 of 5".
    public var number: Int { rawValue + 1 }

    public var title: String {
        switch self {
        case .welcome: return L("Welcome")
        case .server: return L("Server")
        case .apiKey: return L("API Key")
        case .test: return L("Connection Test")
        case .done: return L("Done")
        }
    }

    public var previous: SetupStep? { SetupStep(rawValue: rawValue - 1) }
    public var next: SetupStep? { SetupStep(rawValue: rawValue + 1) }
}

/// One row of the connection-test checklist: the connection test's own steps, then storing the key.
public enum SetupCheck: Hashable, Sendable, CaseIterable {
    case connection(ConnectionTestStep)
    case storingKey

    public static let allCases: [SetupCheck] = ConnectionTestStep.allCases.map(SetupCheck.connection) + [.storingKey]

    public var title: String {
        switch self {
        case .connection(let step): return step.title
        case .storingKey: return L("Saving the API key in your keyring")
        }
    }
}
