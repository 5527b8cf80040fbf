import CGtk
import Foundation
import GtkKit

/// `GLDriverPreload`: its rule (preload only where GDK loads the driver: X11 always, Wayland for the GL renderer), and in this
/// process (it preloads before `gtk_init`, as the app does) that GDK's GL set-up uses the very file
/// loaded ahead, loaded once.
@MainActor
enum GLDriverPreloadChecks {
    static let all = [preloadsOnlyWhereGDKLoadsTheDriver, gdkUsesThePreloadedDriver]

    static let preloadsOnlyWhereGDKLoadsTheDriver = Check(name: "Mesa's GL driver is preloaded only where GDK loads it at start") {
        let files: Set = ["/usr/lib/dri/swrast_dri.so", "/opt/mesa/swrast_dri.so", "/run/user/1/wayland-0"]
        let driver = "/usr/lib/dri/swrast_dri.so"
        let cases: [(name: String, environment: [String: String], library: String, expected: String?)] = [
            ("X11", ["DISPLAY": ":1"], "/usr/lib", driver),
            ("no display", [:], "/usr/lib", nil),
            ("a Wayland session (GL renderer)", ["DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-1"], "/usr/lib", driver),
            ("Wayland's default socket", ["XDG_RUNTIME_DIR": "/run/user/1"], "/usr/lib", driver),
            ("Wayland with the cairo renderer", ["WAYLAND_DISPLAY": "wayland-1", "GSK_RENDERER": "cairo"], "/usr/lib", nil),
            (
                "GDK_BACKEND=x11 on Wayland, cairo",
                ["DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-1", "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo"], "/usr/lib", driver
            ),
            ("GDK_BACKEND=wayland without a compositor", ["DISPLAY": ":1", "GDK_BACKEND": "wayland,x11"], "/usr/lib", nil),
            ("GDK_DEBUG=gl-disable", ["DISPLAY": ":1", "GDK_DEBUG": "misc,gl-disable"], "/usr/lib", nil),
            ("LIBGL_DRIVERS_PATH", ["DISPLAY": ":1", "LIBGL_DRIVERS_PATH": "/opt/mesa:/usr/lib/dri"], "/usr/lib", "/opt/mesa/swrast_dri.so"),
            ("no Mesa installed", ["DISPLAY": ":1"], "/usr/lib64", nil),
        ]
        let wrong = cases.filter {
            GLDriverPreload.driverPath(environment: $0.environment, libraryDirectory: $0.library, exists: files.contains) != $0.expected
        }
        let nvidia = GLDriverPreload.driverPath(
            environment: ["DISPLAY": ":1"], libraryDirectory: "/usr/lib",
            exists: { files.contains($0) || $0 == "/proc/driver/nvidia/version" })
        return Outcome(
            passed: wrong.isEmpty && nvidia == nil,
            detail: "wrong: \(wrong.map(\.name)); NVIDIA's driver loaded: \(nvidia == nil ? "no preload" : "preloads")")
    }

    static let gdkUsesThePreloadedDriver = Check(name: "GDK's GL set-up uses the driver preloaded beside gtk_init, loaded once") {
        _ = Loop.spin(seconds: 5) { GLDriverPreload.loadedPath != nil }
        guard let path = GLDriverPreload.loadedPath else {
            return Outcome(passed: false, detail: "nothing preloaded (DISPLAY \(ProcessInfo.processInfo.environment["DISPLAY"] ?? "unset"))")
        }
        var error: UnsafeMutablePointer<GError>?
        let glReady = gdk_display_prepare_gl(gdk_display_get_default(), &error) != 0
        if let error { g_error_free(error) }
        var preloaded = stat()
        guard stat(path, &preloaded) == 0 else { return Outcome(passed: false, detail: "\(path) cannot be read") }
        // Each loaded copy of a library maps its file from offset 0 once.
        let copies = mappedFromStart().filter { $0.path.hasSuffix("_dri.so") }
        let preloadedCopies = copies.filter { $0.inode == UInt64(preloaded.st_ino) }
        return Outcome(
            passed: glReady && copies.count == 1 && preloadedCopies.count == 1,
            detail: "GL ready: \(glReady); preloaded \(path); GL drivers loaded: \(copies.map(\.path))")
    }

    /// The files mapped from their start in this process (one entry per loaded copy of a library),
    /// with their inodes, from `/proc/self/maps`.
    private static func mappedFromStart() -> [(path: String, inode: UInt64)] {
        ProcessMaps.text().split(separator: "\n").compactMap { line in
            // address perms offset device inode path (the paths looked for have no spaces)
            let fields = line.split(separator: " ")
            guard fields.count == 6, Int(fields[2], radix: 16) == 0, let inode = UInt64(fields[4]), inode != 0 else { return nil }
            return (String(fields[5]), inode)
        }
    }
}
