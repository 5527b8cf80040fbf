import CProcess

/// What every process that holds the API key does first (the app, the CLI, the UI driver): it cannot dump
/// core (a dump would hold the key), other processes of the user cannot attach to read its memory, and a
/// fatal signal sent from outside ends it at once (Swift's crash reporter would otherwise take it in).
public enum ProcessHardening {
    public static func apply() { _ = bos_harden_process() }

    /// False once `apply` has run (for the tests).
    public static var isDumpable: Bool { bos_process_is_dumpable() != 0 }
}
