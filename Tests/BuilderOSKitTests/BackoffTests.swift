import Testing

@testable import BuilderOSKit

struct BackoffTests {
    @Test func restScheduleDoublesAndIsCapped() {
        let ceilings = (0..<7).map { Backoff.rest.ceiling(forAttempt: $0) }
        #expect(ceilings == [0.5, 1, 2, 4, 4, 4, 4])
    }

    @Test func reconnectScheduleIsCappedAt30Seconds() {
        let ceilings = (0..<8).map { Backoff.reconnect.ceiling(forAttempt: $0) }
        #expect(ceilings == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(Backoff.reconnect.ceiling(forAttempt: 10_000) == 30)
    }

    @Test func jitterStaysWithinItsBand() {
        let backoff = Backoff(base: 1, maximum: 30, jitter: 0.5)
        #expect(backoff.delay(forAttempt: 3, unit: { 0 }) == 8)
        #expect(backoff.delay(forAttempt: 3, unit: { 0.999_999 }) > 4)
        #expect(backoff.delay(forAttempt: 3, unit: { 0.5 }) == 6)
        for _ in 0..<1000 {
            let d = backoff.delay(forAttempt: 2)
            #expect(d >= 2 && d <= 4)
        }
    }

    @Test func retryPolicyRetriesOnlyTransientErrorsWithinItsBudget() {
        let policy = RetryPolicy.standard
        #expect(policy.shouldRetry(after: .timedOut, attempt: 0))
        #expect(policy.shouldRetry(after: .tunnelError(status: 502), attempt: 1))
        #expect(!policy.shouldRetry(after: .tunnelError(status: 502), attempt: 2))
        #expect(!policy.shouldRetry(after: .unauthorized, attempt: 0))
        #expect(!policy.shouldRetry(after: .serverError(status: 500, message: nil), attempt: 0))
        #expect(!RetryPolicy.never.shouldRetry(after: .timedOut, attempt: 0))
    }
}

struct DurationTests {
    static let cases: [(Double, String)] = [
        (0, "less than a minute"), (59, "less than a minute"), (60, "1 minute"), (125, "2 minutes"),
        (3600, "1 hour"), (3660, "1 hour, 1 minute"), (7320, "2 hours, 2 minutes"),
        (86_400, "1 day"), (90_000, "1 day, 1 hour"), (291_659, "3 days, 9 hours"), (-5, "less than a minute"),
    ]

    @Test(arguments: cases)
    func uptimeInWords(seconds: Double, words: String) {
        #expect(Durations.words(seconds: seconds) == words)
    }
}
