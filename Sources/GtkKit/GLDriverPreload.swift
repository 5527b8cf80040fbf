import CGtk
import CStartPreload
import Foundation

/// Loads Mesa's GL driver on a thread of its own while the main thread starts — only where GDK is
/// about to load it anyway.
///
/// Why: on X11, `gtk_init` sets GL up while it opens the display (to choose the windows' visual,
/// even for the cairo renderer), and that `dlopen`s Mesa's driver on the main thread: one 25 MB
/// library whose symbol binding is ~20 ms here. Under a server without DRI (Xvfb, Xephyr, VNC) it
/// happens twice: GDK tries EGL first, which loads the driver, fails, and unloads it, and then GLX
/// loads it again. Opened here first, with the flags Mesa's loader uses (`RTLD_NOW | RTLD_GLOBAL`),
/// and never closed, GDK's opens find it loaded and only count a reference. The work is GDK's own;
/// it moves to the core that is idle while the main thread starts. On Wayland the GL renderer
/// (GTK's default there) loads the same driver when the first window is realized, on the main
/// thread too.
///
/// Mesa ships one driver under many names (`swrast_dri.so`, `iris_dri.so`, `radeonsi_dri.so`…
/// are hard links of one file) and the dynamic loader knows a loaded file by its inode, so
/// whichever name GDK's set-up asks for, it finds the one loaded here.
public enum GLDriverPreload {
    /// The driver this process preloaded (nil until the loading thread has opened it, or when the
    /// rule said no): what the checks look at.
    public static var loadedPath: String? { lock.withLock { opened } }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var opened: String?

    /// Starts loading the driver when `driverPath` says GDK will load it. Call on the main thread
    /// before GTK starts, once the environment is set, and where the main thread needs no `dlopen`
    /// or new thread for a while: the loading holds the dynamic loader's lock (the app: `DesktopApplication.run`).
    public static func start() {
        let environment = ProcessInfo.processInfo.environment
        guard
            let path = driverPath(
                environment: environment, libraryDirectory: gtkLibraryDirectory(),
                exists: { FileManager.default.fileExists(atPath: $0) })
        else { return }
        let thread = Thread {
            // Kept open for good: the driver then stays loaded between EGL's probe and GLX.
            if dlopen(path, RTLD_NOW | RTLD_GLOBAL) != nil { lock.withLock { opened = path } }
        }
        thread.name = "gl-driver-preload"
        thread.start()
    }

    /// The Mesa driver GDK will load at start, or nil when it may not load one: X11 sets GL up
    /// while opening the display, whatever the renderer; Wayland when it realizes the first window,
    /// if the renderer is GL (GTK 4.8's default there; the cairo renderer needs none);
    /// `GDK_DEBUG=gl-disable` turns GL off; NVIDIA's driver brings its own GL.
    /// - Parameters:
    ///   - libraryDirectory: the directory GTK was loaded from; Mesa's drivers live in its `dri`.
    ///   - exists: whether a file exists (the checks pass their own).
    public static func driverPath(environment: [String: String], libraryDirectory: String?, exists: (String) -> Bool) -> String? {
        switch backend(environment: environment, exists: exists) {
        case .x11: break
        case .wayland: guard rendersWithGL(environment: environment) else { return nil }
        case nil: return nil
        }
        if let debug = environment["GDK_DEBUG"], debug.contains("gl-disable") { return nil }
        if exists("/proc/driver/nvidia/version") { return nil }
        // Mesa's loader searches LIBGL_DRIVERS_PATH first when it is set (its first entry here).
        let directory: String
        if let chosen = environment["LIBGL_DRIVERS_PATH"]?.split(separator: ":").first {
            directory = String(chosen)
        } else if let libraryDirectory {
            directory = libraryDirectory + "/dri"
        } else {
            return nil
        }
        let path = directory + "/swrast_dri.so"
        return exists(path) ? path : nil
    }

    /// Whether GTK 4.8 draws windows with its GL renderer, given GL: its default, unless
    /// `GSK_RENDERER` names another or `GDK_DEBUG=gl-disable` turns GL off.
    static func rendersWithGL(environment: [String: String]) -> Bool {
        ["", "gl", "ngl", "opengl"].contains(environment["GSK_RENDERER"] ?? "")
            && !(environment["GDK_DEBUG"] ?? "").contains("gl-disable")
    }

    enum Backend { case x11, wayland }

    /// GDK's choice of backend: `GDK_BACKEND`'s first entry when set, else Wayland when a
    /// compositor's socket is there (libwayland's default name is `wayland-0`), else X11; nil
    /// without either display.
    static func backend(environment: [String: String], exists: (String) -> Bool) -> Backend? {
        let x11 = !(environment["DISPLAY"] ?? "").isEmpty
        let wayland =
            !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || environment["XDG_RUNTIME_DIR"].map { exists($0 + "/wayland-0") } == true
        if let chosen = environment["GDK_BACKEND"], let first = chosen.split(separator: ",").first, first != "*" {
            if first == "x11" { return x11 ? .x11 : nil }
            if first == "wayland" { return wayland ? .wayland : nil }
            return nil
        }
        return wayland ? .wayland : x11 ? .x11 : nil
    }

    /// Where libgtk-4 was loaded from: Mesa's drivers are installed beside it.
    private static func gtkLibraryDirectory() -> String? {
        guard let directory = bos_gl_preload_gtk_library_directory() else { return nil }
        defer { g_free(directory) }
        return String(cString: directory)
    }
}
