import CGtk

/// A GIO-style asynchronous call started on the main thread, whose answer comes back to the main loop:
/// `start` gets GIO's callback and its data, `done` the result once (GIO calls back in the main context
/// the call was started in).
@MainActor
public enum AsyncCall {
    public typealias Done = @MainActor (OpaquePointer?) -> Void

    public static func start(_ start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void, done: @escaping Done) {
        start(
            { _, result, user in
                MainActor.assumeIsolated { SignalClosure.body(user, as: Done.self)(result) }
                SignalClosure.release(user)
            }, SignalClosure.retain(done))
    }
}
