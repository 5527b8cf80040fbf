import Foundation

/// What the tray indicator shows, derived from the one connection snapshot (nil before sign-in).
/// Equatable so the tray tells D-Bus only what changed.
public struct TrayStatus: Sendable, Equatable {
    public var indicator: ConnectionIndicator
    /// "BuilderOS — Connected"
    public var tooltipTitle: String
    /// "builder.example.com · 42 ms", or what went wrong.
    public var tooltipBody: String
    public var signedIn: Bool
    /// Whether the user asked to be connected: the menu then offers Disconnect, else Connect.
    public var wantsConnection: Bool
    /// Sleep needs a connected server with the system server.
    public var canSleep: Bool

    public static let appName = "BuilderOS"

    /// The themed icon for the state (installed under hicolor/…/status).
    public var iconName: String { "\(BuilderOSKit.applicationID)-\(indicator.rawValue)" }

    public init(snapshot: ConnectionSnapshot?) {
        guard let snapshot else {
            indicator = .disconnected
            tooltipTitle = L("%@ — %@", Self.appName, L("Not set up"))
            tooltipBody = L("Open BuilderOS to connect to your server.")
            (signedIn, wantsConnection, canSleep) = (false, false, false)
            return
        }
        indicator = snapshot.indicator
        tooltipTitle = L("%@ — %@", Self.appName, snapshot.stateText)
        var facts = [snapshot.server.displayHost]
        if snapshot.indicator == .connected, let latency = snapshot.latencyMilliseconds {
            facts.append(L("%d ms", String(Int(latency.rounded()))))
        }
        tooltipBody = [facts.joined(separator: " · "), snapshot.indicator == .connected ? nil : snapshot.help]
            .compactMap { $0 }.joined(separator: "\n")
        signedIn = true
        wantsConnection = snapshot.wantsConnection
        canSleep = PowerAvailability(snapshot: snapshot, wakeOnLANConfigured: false).canSleep
    }
}

/// How long a `--hidden` start waits for a tray host to answer before it opens the window instead:
/// 2 s, asked every 100 ms.
public enum TrayHostWait {
    public static let polls = 20
    public static let pause: Duration = .milliseconds(100)
}
