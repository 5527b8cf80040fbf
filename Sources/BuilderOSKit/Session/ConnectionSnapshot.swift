import Foundation

/// The four states every connection indicator shows (header dot, tray, pages).
public enum ConnectionIndicator: String, Sendable, Equatable {
    case connected, connecting, disconnected, failed
}

/// What the Connection page's button does in a state.
public enum ConnectionAction: Sendable, Equatable {
    case connect, disconnect, retry
    /// A connection is under way: nothing to press.
    case wait
}

/// Everything known about the connection at one moment. Views render it; they never decide.
public struct ConnectionSnapshot: Sendable, Equatable {
    public var server: ServerAddress
    /// The user asked to be connected (Connect) or not (Disconnect).
    public var wantsConnection: Bool
    /// The primary (Jarvis) chat socket's state.
    public var socket: ChatConnectionState = .disconnected
    public var status: StatusReply?
    public var latencyMilliseconds: Double?
    /// The most recent failure, kept after recovery for the help card.
    public var lastFailure: BuilderOSError?
    /// The computer has no network that reaches this server (GNetworkMonitor: no default route, and none to the
    /// server's address): retries pause, the state says "Offline".
    public var offline = false
    /// The desktop's power saver is on: polls and refreshes slow down.
    public var powerSaver = false
    /// Whether the optional system server (capsules, power) answers; nil until known.
    public var systemServer: Bool?
    /// When the server last answered (status or a chat frame).
    public var lastSync: Date?

    public init(server: ServerAddress, wantsConnection: Bool) {
        self.server = server
        self.wantsConnection = wantsConnection
    }

    public var indicator: ConnectionIndicator {
        if offline && socket != .connected { return .disconnected }
        switch socket {
        case .connected: return .connected
        case .connecting, .authenticating: return .connecting
        case .waitingToReconnect: return .connecting
        case .failed: return .failed
        case .disconnected: return wantsConnection ? .connecting : .disconnected
        }
    }

    /// The Connection page's button. Offline while the user wants a connection, the app is waiting for
    /// the network: Connect would do nothing, Disconnect stops the wait (as the tray's menu offers).
    public var action: ConnectionAction {
        switch indicator {
        case .connected: return .disconnect
        case .connecting: return .wait
        case .failed: return .retry
        case .disconnected: return wantsConnection ? .disconnect : .connect
        }
    }

    /// The state in words, as the header and the Connection page show it.
    public var stateText: String {
        if offline && socket != .connected { return L("Offline") }
        switch socket {
        case .connected: return L("Connected")
        case .connecting, .authenticating: return L("Connecting…")
        case .waitingToReconnect: return L("Reconnecting…")
        case .failed: return L("Connection failed")
        case .disconnected: return wantsConnection ? L("Connecting…") : L("Disconnected")
        }
    }

    /// "Connection status: Connected", for screen readers.
    public var accessibleText: String { L("Connection status: %@", stateText) }

    /// Latency above this is shown with a warning.
    public static let slowLatencyMilliseconds = 500.0
    public var isSlow: Bool { (latencyMilliseconds ?? 0) > Self.slowLatencyMilliseconds }

    /// "WebSocket over TLS" or "WebSocket (unencrypted)".
    public var transportText: String {
        server.scheme == .https ? L("WebSocket over TLS (wss)") : L("WebSocket, unencrypted (ws)")
    }

    /// Advice for the help card, from the last failure; nil when all is well.
    public var help: String? {
        // Offline after a Disconnect, nothing happens when the network is back: no promise of it.
        if offline && socket != .connected && wantsConnection {
            return L("This computer is offline. BuilderOS connects again as soon as the network is back; messages you write wait until then.")
        }
        // After a Disconnect the state is the user's choice, not a failure to explain (the page says so).
        guard wantsConnection else { return nil }
        if case .failed(let error) = socket { return error.sentenceWithFix }
        guard indicator != .connected, let failure = lastFailure else { return nil }
        return failure.sentenceWithFix
    }
}
