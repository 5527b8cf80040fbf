import Foundation

/// Runs blocking work (a process wait, a polling loop) on a thread of its own. On Swift's cooperative
/// threads — two on a two-core machine — it would stall the in-process servers of every other test
/// running beside it, and their clients would time out.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
