import CGtk

/// An owned reference to a GObject. Floating references (fresh widgets) are sunk, so the Swift
/// owner holds a real reference; it is released when the owner goes away, never used after.
@MainActor
public final class ObjectRef {
    public let pointer: UnsafeMutableRawPointer

    /// Takes a floating reference (e.g. from `gtk_button_new`) and sinks it.
    public init(sinking floating: UnsafeMutableRawPointer) {
        g_object_ref_sink(floating)
        pointer = floating
    }

    /// Takes over a full reference the caller owns (e.g. from `g_object_new` of a non-floating type).
    public init(adopting owned: UnsafeMutableRawPointer) {
        pointer = owned
    }

    /// Adds a reference of our own to an object someone else owns.
    public init(retaining borrowed: UnsafeMutableRawPointer) {
        g_object_ref(borrowed)
        pointer = borrowed
    }

    isolated deinit {
        g_object_unref(pointer)
    }

    public func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { pointer.assumingMemoryBound(to: T.self) }
}

/// Tells when a GObject is finalized, without keeping it alive (a GObject weak reference).
@MainActor
public final class FinalizationWatch {
    public private(set) var isFinalized = false
    private var box: Unmanaged<FinalizationWatch>?

    public init(_ object: UnsafeMutableRawPointer) {
        let box = Unmanaged.passRetained(self)
        self.box = box
        g_object_weak_ref(
            object.assumingMemoryBound(to: GObject.self),
            { data, _ in
                let watch = Unmanaged<FinalizationWatch>.fromOpaque(data!)
                MainActor.assumeIsolated {
                    watch.takeUnretainedValue().isFinalized = true
                    watch.takeUnretainedValue().box = nil
                }
                watch.release()
            }, box.toOpaque())
    }
}
