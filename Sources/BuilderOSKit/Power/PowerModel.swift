import Foundation

/// When Sleep and Wake can work, and why not: the one rule the Power page, the tray menu and their
/// tests read. Sleep needs a connected server that has not said it lacks the system routes (unknown
/// counts as "try": the server's 404 then settles it). Wake works with a Wake-on-LAN address from
/// anywhere; without one it asks the server, which needs the server.
public struct PowerAvailability: Equatable, Sendable {
    /// Why Sleep cannot work now; nil when it can.
    public let sleepBlocked: String?
    /// Why Wake cannot work now; nil when it can.
    public let wakeBlocked: String?
    /// A remark while Wake works without a MAC address (the server will say how it can be woken).
    public let wakeNote: String?

    public var canSleep: Bool { sleepBlocked == nil }
    public var canWake: Bool { wakeBlocked == nil }

    public init(snapshot: ConnectionSnapshot, wakeOnLANConfigured: Bool) {
        let connected = snapshot.indicator == .connected
        let systemAbsent = snapshot.systemServer == false
        sleepBlocked =
            !connected
            ? L("Connect to the server to put it to sleep.")
            : systemAbsent ? L("Sleep is not available on this server.") : nil
        if wakeOnLANConfigured {
            (wakeBlocked, wakeNote) = (nil, nil)
        } else if !connected {
            (wakeBlocked, wakeNote) = (L("Set the server machine's MAC address in Preferences to wake it from here."), nil)
        } else if systemAbsent {
            (wakeBlocked, wakeNote) = (
                L("Wake is not available on this server. Set the server machine's MAC address in Preferences to wake it from here."), nil
            )
        } else {
            (wakeBlocked, wakeNote) = (nil, L("No MAC address is set: the server will explain how it can be woken."))
        }
    }
}

/// After a Wake-on-LAN packet: ask the server until it answers. Machines take a minute or two to wake
/// and start their services, so by default 60 tries two seconds apart. The probe and the pause are
/// passed in, so the loop is tested without a network or a clock.
public enum WakeWatch {
    public static let attempts = 60
    public static let pause: Double = 2
    /// Each status request while waiting: short, since the next try follows.
    public static let requestTimeout: Double = 5

    /// True as soon as `probe` answers; false after `attempts` tries, or when the task is cancelled.
    public static func untilAwake(
        attempts: Int = WakeWatch.attempts, probe: @Sendable () async -> Bool,
        pause: @Sendable () async -> Void = { try? await Task.sleep(nanoseconds: UInt64(WakeWatch.pause * 1e9)) }
    ) async -> Bool {
        for attempt in 0..<attempts {
            if Task.isCancelled { return false }
            if await probe() { return true }
            if attempt < attempts - 1 { await pause() }
        }
        return false
    }
}

/// How long the Power page waits for the server's answer to Sleep or to how to wake it (seconds):
/// a sleeping machine may take a while to answer before it goes.
public enum PowerRequests {
    public static let timeout: Double = 10
}
