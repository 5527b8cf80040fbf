/// Bounded exponential backoff with jitter: attempt n waits base·2ⁿ capped at `maximum`, then
/// scaled by a random factor in [1 − jitter, 1]. The random source is injectable so tests can pin it.
public struct Backoff: Sendable, Equatable {
    public var base: Double
    public var maximum: Double
    public var jitter: Double

    public init(base: Double, maximum: Double, jitter: Double = 0.5) {
        precondition(base > 0 && maximum >= base && (0...1).contains(jitter))
        (self.base, self.maximum, self.jitter) = (base, maximum, jitter)
    }

    /// REST retries: 0.5 s, 1 s, … at most 4 s.
    public static let rest = Backoff(base: 0.5, maximum: 4)
    /// Chat reconnects: 1 s, 2 s, … at most 30 s.
    public static let reconnect = Backoff(base: 1, maximum: 30)

    /// The ceiling for attempt `attempt` (0-based) before jitter.
    public func ceiling(forAttempt attempt: Int) -> Double {
        let exponent = min(max(attempt, 0), 30)
        return min(maximum, base * Double(1 << exponent))
    }

    /// Seconds to wait before attempt `attempt + 1`; `unit` returns a value in [0, 1).
    public func delay(forAttempt attempt: Int, unit: () -> Double = { Double.random(in: 0..<1) }) -> Double {
        let ceiling = ceiling(forAttempt: attempt)
        return ceiling * (1 - jitter * unit())
    }
}

/// How often a REST call is tried. Only idempotent calls are retried, and only on transient errors.
public struct RetryPolicy: Sendable, Equatable {
    public var maxAttempts: Int
    public var backoff: Backoff

    public init(maxAttempts: Int, backoff: Backoff) {
        (self.maxAttempts, self.backoff) = (max(1, maxAttempts), backoff)
    }

    public static let standard = RetryPolicy(maxAttempts: 3, backoff: .rest)
    public static let never = RetryPolicy(maxAttempts: 1, backoff: .rest)

    public func shouldRetry(after error: BuilderOSError, attempt: Int) -> Bool {
        attempt + 1 < maxAttempts && error.isTransient
    }
}
