import BuilderOSKit
import Foundation

/// The active server's history, opened on a thread of its own while GTK starts: the main window needs
/// it before it can be built, and opening it sets SQLite's connection up and, on a first start, makes
/// the file and its tables (~4 ms, with writes the disk must sync). It changes no row
/// (`HistoryStore(opening:)`): a second instance of the app, which only hands its launch to the first,
/// opens it too before it knows it is one.
public enum HistoryOpening {
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var opening: (path: String, result: Result<HistoryStore, BuilderOSError>?)?
    nonisolated(unsafe) private static var taken = false

    /// Whether the main window took a store opened here (the checks look at it).
    public static var tookOpenedStore: Bool { condition.withLock { taken } }

    /// Starts opening the file at `path`. Call it before GTK's GL driver starts loading, which holds the lock
    /// that making a thread needs (`DesktopApplication.run`).
    static func start(path: String) {
        condition.withLock { opening = (path, nil) }
        Thread.detachNewThread {
            let result = Result { () throws(BuilderOSError) in try HistoryStore(opening: path) }
            condition.withLock {
                opening?.result = result
                condition.broadcast()
            }
        }
    }

    /// The store opened for `path`, waiting for the thread if it has not finished; nil when no opening was
    /// started for that file. Taken once: whatever was opened is given up either way.
    static func take(path: String) -> Result<HistoryStore, BuilderOSError>? {
        condition.withLock {
            guard let started = opening else { return nil }
            guard started.path == path else {
                opening = nil
                return nil
            }
            while opening?.result == nil { condition.wait() }
            defer { opening = nil }
            taken = true
            return opening?.result
        }
    }
}
