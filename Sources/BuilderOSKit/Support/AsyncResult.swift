extension Result where Failure == any Error {
    /// `Result(catching:)` for async work.
    public static func of(_ body: @Sendable () async throws -> Success) async -> Result<Success, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
