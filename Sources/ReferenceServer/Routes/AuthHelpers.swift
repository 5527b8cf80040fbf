import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    static let apiKey = HTTPField.Name("X-API-Key")!
}

extension Request {
    var apiKeyHeader: String? { headers[.apiKey] }
}

/// Applies the fault switches that affect every HTTP request: the tunnel error page and the
/// response delay. Chat socket upgrades pass through here too, so a "tunnel down" also fails them.
struct FaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        state.recordRequest(path: request.uri.path)
        // Every key a request carries is checked, on routes that need none too: a wrong one is recorded.
        for key in [request.apiKeyHeader, request.headers[.authorization]].compactMap({ $0 }) { _ = state.isValid(key: key) }
        let faults = state.faults
        if let status = faults.tunnelErrorStatus, !request.uri.path.hasPrefix("/__reference") {
            return JSONResponse.tunnelPage(status: status)
        }
        if faults.responseDelayMilliseconds > 0, !request.uri.path.hasSuffix("/ws") {
            try await Task.sleep(for: .milliseconds(faults.responseDelayMilliseconds))
        }
        return try await next(request, context)
    }
}
