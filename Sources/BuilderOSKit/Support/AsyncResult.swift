extension Result where Failure == BuilderOSError {
    /// `Result(catching:)` for the clients' async calls, keeping their error's type.
    public static func of(_ body: @Sendable () async throws(BuilderOSError) -> Success) async -> Result<Success, BuilderOSError> {
        do throws(BuilderOSError) { return .success(try await body()) } catch { return .failure(error) }
    }
}
