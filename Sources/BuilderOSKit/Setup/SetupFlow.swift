/// The setup wizard's state machine, without any GTK: which step is shown, what the user typed,
/// what the connection test found and whether the key is stored. The wizard window renders it and
/// feeds it events; the rules (when Continue is allowed, where Back goes, what must be confirmed,
/// that nothing is stored before the test passes) live here, where unit tests reach them.
public struct SetupFlow: Sendable {
    public private(set) var step: SetupStep
    /// The server address as typed or pasted (kept verbatim, so nothing the user typed is lost).
    public var serverText: String
    /// The API key as typed. Held in memory only, until it is stored in the Secret Service.
    public var keyText: String
    /// The plain-http address the user agreed to use, if any.
    public private(set) var consentedAddress: ServerAddress?
    /// Each checklist row's state; empty before the test runs.
    public private(set) var checks: [SetupCheck: ConnectionTestOutcome] = [:]
    /// What the test measured, for the Done step.
    public private(set) var report: ConnectionReport?
    /// True once the key is in the Secret Service and the address is saved.
    public private(set) var isStored = false
    /// When adding a server: those already set up, whose addresses the server step refuses.
    public var alreadySetUp: [ServerProfile] = []
    /// A PEM file of certificate authorities the user chose to trust for this server (after a test found its
    /// certificate self-signed or from an unknown authority); the test runs with it, and it is saved with the server.
    public var caFile: String?

    /// The test failed on a certificate that an extra authority could vouch for: the step offers to choose one.
    public var offersAuthority: Bool {
        switch failedCheck?.error {
        case .tlsFailure(.selfSigned), .tlsFailure(.untrustedIssuer): return true
        default: return false
        }
    }

    public init(step: SetupStep = .welcome, serverText: String = "", keyText: String = "") {
        (self.step, self.serverText, self.keyText) = (step, serverText, keyText)
    }

    // MARK: Server

    /// Live validation of the address field.
    public var serverValidation: Result<ServerAddress, ServerAddressProblem> {
        do { return .success(try ServerAddress.parse(serverText)) } catch { return .failure(error) }
    }

    public var server: ServerAddress? { try? serverValidation.get() }

    /// The server already set up at the typed address, when adding one (refused: it has its key and history).
    public var duplicate: ServerProfile? { server.flatMap { AppSettings.server(at: $0, in: alreadySetUp) } }

    /// Live validation of the key field (`APIKey`'s rule): the key as it will be stored, or why it cannot be one.
    public var keyValidation: Result<String, APIKeyProblem> {
        do { return .success(try APIKey.validated(keyText)) } catch { return .failure(error) }
    }

    public enum ServerDecision: Equatable, Sendable {
        case proceed
        case invalid(ServerAddressProblem)
        /// Adding a server whose address is already set up.
        case alreadyAdded(ServerProfile)
        /// Plain http over the internet: ask the user first.
        case needsConsent(ServerAddress)
    }

    // MARK: Moving between steps

    /// Whether the primary button may be pressed on the current step.
    public var canContinue: Bool {
        switch step {
        case .welcome, .done: return true
        case .server: return server != nil && duplicate == nil
        case .apiKey: return (try? keyValidation.get()) != nil
        case .test: return isStored
        }
    }

    /// Advances when the current step allows it. On the server step, plain http over the internet
    /// needs `consentToPlainHTTP()` first.
    @discardableResult
    public mutating func advance() -> ServerDecision {
        switch step {
        case .server:
            switch serverValidation {
            case .failure(let problem): return .invalid(problem)
            case .success(let address):
                if let duplicate { return .alreadyAdded(duplicate) }
                if address.requiresConfirmation && consentedAddress != address { return .needsConsent(address) }
                serverText = address.baseURL  // show the normalised form when the user comes back
            }
        case .apiKey:
            guard case .success(let key) = keyValidation else { return .proceed }
            keyText = key
            resetTest()
        case .test:
            guard isStored else { return .proceed }
        case .done:
            return .proceed
        case .welcome:
            break
        }
        if let next = step.next { step = next }
        return .proceed
    }

    public mutating func consentToPlainHTTP() {
        consentedAddress = server
    }

    /// Back goes to the previous step; the welcome step has none. Leaving the test step forgets its
    /// results (the key was not stored, or the user wants to change what was).
    public mutating func goBack() {
        guard step != .welcome, step != .done, let previous = step.previous else { return }
        if step == .test { resetTest() }
        step = previous
    }

    /// Jumps back to where a failed check can be fixed: the server for reachability, the key for
    /// the key check.
    public var stepToFix: SetupStep? {
        guard let failed = failedCheck else { return nil }
        switch failed.check {
        case .connection(.reachability): return .server
        case .connection(.key): return .apiKey
        default: return nil
        }
    }

    public mutating func go(backTo target: SetupStep) {
        guard target < step, step != .done else { return }
        if step == .test { resetTest() }
        step = target
    }

    // MARK: The test

    public mutating func record(_ check: SetupCheck, _ outcome: ConnectionTestOutcome) {
        checks[check] = outcome
    }

    public mutating func finishTest(_ report: ConnectionReport) {
        self.report = report
        for (step, outcome) in report.outcomes { checks[.connection(step)] = outcome }
        if !report.passed { checks[.storingKey] = .skipped }
    }

    public mutating func markStored() {
        checks[.storingKey] = .passed(detail: L("Stored in your keyring."))
        isStored = true
    }

    public var isTesting: Bool { checks.values.contains(.running) }

    /// The first failed row and its error, for the error box under the checklist.
    public var failedCheck: (check: SetupCheck, error: BuilderOSError)? {
        for check in SetupCheck.allCases {
            if case .failed(let error) = checks[check] { return (check, error) }
        }
        return nil
    }

    /// Retrying after the connection passed but storing failed only retries storing.
    public var retryStoresOnly: Bool {
        guard let report, report.passed, !isStored else { return false }
        return true
    }

    public mutating func resetTest() {
        checks = [:]
        report = nil
        isStored = false
    }
}
