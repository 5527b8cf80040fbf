import CGtk
import CShims
import Foundation

/// Lets `DispatchQueue.main` and `@MainActor` work run inside GLib's main loop. libdispatch
/// signals pending main-queue work on an eventfd; a GLib fd source drains the queue when it
/// fires. The eventfd must be read first, or it stays readable and the loop spins a core.
@MainActor
public enum MainLoopBridge {
    private static var sourceID: UInt32 = 0

    /// Installs the bridge on the default main context (once; later calls do nothing).
    public static func install() {
        guard sourceID == 0 else { return }
        let fd = _dispatch_get_main_queue_handle_4CF()
        sourceID = g_unix_fd_add(
            fd, G_IO_IN,
            { fd, _, _ in
                var counter: UInt64 = 0
                _ = read(fd, &counter, MemoryLayout<UInt64>.size)
                _dispatch_main_queue_callback_4CF(nil)
                return 1  // G_SOURCE_CONTINUE
            }, nil)
    }

    public static var isInstalled: Bool { sourceID != 0 }
}
