import CProcess

/// What every process that holds the API key does first: it dumps no core (a dump would hold the key), and a fatal
/// signal sent from outside ends it at once (Swift's crash reporter would otherwise take it in).
public enum ProcessHardening {
    /// How far a process goes.
    public enum Level: Sendable {
        /// The CLI and the reference server: also not dumpable (PR_SET_DUMPABLE 0), so no core whatever the
        /// system's core pattern, and no other process of the user can attach to read the key.
        case noAttach
        /// The desktop app: core size 0 only. A non-dumpable process is refused by every desktop portal
        /// (xdg-desktop-portal cannot open /proc/<pid>/root): the appearance, the file chooser.
        case desktop
    }

    public static func apply(_ level: Level) { _ = bos_harden_process(level == .noAttach ? 1 : 0) }

    /// False once `apply` has run (for the tests).
    public static var isDumpable: Bool { bos_process_is_dumpable() != 0 }
}
