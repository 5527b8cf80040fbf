import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

/// BuilderOS reference server: every route and socket of the wire contract, with fault switches.
/// Used by the README demo and by the tests, always on loopback by default.
public struct ReferenceServer: Sendable {
    public static let version = "1.4.0-reference"

    public let state: ServerState
    public let host: String
    public let port: Int
    public let testControls: Bool
    /// `/api/terminal/ws`: a shell on this machine for whoever has the key. Off unless asked for.
    public let terminalEnabled: Bool

    public init(state: ServerState, host: String = "127.0.0.1", port: Int = 8080, testControls: Bool = false, terminalEnabled: Bool = false) {
        self.state = state
        self.terminalEnabled = terminalEnabled
        self.host = host
        self.port = port
        self.testControls = testControls
    }

    /// Runs until the task is cancelled. `onRunning` receives the base URL once the port is bound.
    public func run(onRunning: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.middlewares.add(FaultMiddleware(state: state))
        CoreRoutes.add(to: router, state: state)
        SystemRoutes.add(to: router, state: state)
        FileRoutes.add(to: router, state: state)
        if testControls { ControlRoutes.add(to: router, state: state) }
        ChatSocket.add(to: router, state: state)
        if terminalEnabled { TerminalSocket.add(to: router, state: state) }
        let socketPaths = Set(ChatSocket.paths + (terminalEnabled ? [TerminalSocket.path] : []))

        var logger = Logger(label: "builderos-server")
        logger.logLevel = .warning
        let state = self.state
        let host = self.host
        let app = Application(
            router: router,
            server: UnservedUpgradeGate.builder(webSocketRouter: router, servedPaths: socketPaths, configuration: .init(maxFrameSize: 16 << 20)),
            configuration: .init(address: .hostname(host, port: port), serverName: "builderos-reference"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                let display = host.contains(":") ? "[\(host)]" : host
                let url = "http://\(display):\(bound)"
                state.baseURL = url
                await onRunning(url)
            },
            logger: logger
        )
        try await app.run()
    }
}
