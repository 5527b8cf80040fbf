import CGtk

/// Widgets that have left the window but whose destruction waits until the main loop has nothing
/// more urgent to do. Destroying a widget disposes every descendant (a reply's row has ~50), and
/// scrolling a long conversation drops a page of rows in the very frame that makes the next page,
/// and destroying them cost two thirds of what making them did. Here each
/// object is released in an idle callback of its own at `G_PRIORITY_LOW`, below GDK's drawing, so
/// a frame that is due always comes first and no single release holds up more than one object's
/// worth of work.
@MainActor
public enum DeferredRelease {
    private static var pending: [(object: ObjectRef, owner: AnyObject?)] = []
    private static var scheduled = false

    /// Takes a reference to `object` now (and keeps `owner`, e.g. the Swift view whose signal
    /// handlers the widget still holds) and lets both go later. Call it before the object's last
    /// other reference goes (before a widget is unparented).
    public static func release(_ object: UnsafeMutableRawPointer, keeping owner: AnyObject? = nil) {
        pending.append((ObjectRef(retaining: object), owner))
        guard !scheduled else { return }
        scheduled = true
        g_idle_add_full(
            G_PRIORITY_LOW,
            { _ in
                MainActor.assumeIsolated { DeferredRelease.releaseOne() ? 1 : 0 }
            }, nil, nil)
    }

    /// Objects waiting to be released (checks read it).
    public static var count: Int { pending.count }

    /// Releases the oldest waiting object; true while more wait.
    private static func releaseOne() -> Bool {
        if !pending.isEmpty { pending.removeFirst() }
        scheduled = !pending.isEmpty
        return scheduled
    }
}
