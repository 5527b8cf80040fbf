import Foundation

/// GIO's module cache, checked before anything is measured: GIO loads a module at the start of
/// every program that uses GSettings (the app and the CLI; the C window does not) unless the cache
/// lists it and is newer than the module file's last change. A system's package triggers keep the
/// cache fresh; `perf` does not: its build-id cache (`~/.debug`) hard-links every library it
/// samples, and a new link changes the file. The GIO proxy modules, loaded that way, took 2 ms of
/// the app's main thread before the GL driver's loading starts (rule 9) and pulled in libproxy.
enum GIOModuleCache {
    /// The modules GIO would load at every start, by file name: empty when the cache covers them all.
    static func modulesLoadedAtEveryStart(in directory: String) -> [String] {
        let cachePath = directory + "/giomodule.cache"
        // Without a cache GIO loads every module.
        let cache = (try? String(contentsOfFile: cachePath, encoding: .utf8)) ?? ""
        let cacheTime = changeTime(cachePath, mtimeToo: true) ?? 0
        let listed = Set(cache.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        let modules = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".so") }
        // GLib's giomodule.c: a module is loaded lazily only when the cache lists it and its ctime is not newer.
        return modules.filter { name in
            guard listed.contains(name), let changed = changeTime(directory + "/" + name, mtimeToo: false) else { return true }
            return changed > cacheTime
        }.sorted()
    }

    /// GIO's module directory: `GIO_MODULE_DIR` when set, else GLib's own (pkg-config's `giomoduledir`).
    static func directory(environment: [String: String]) -> String {
        if let chosen = environment["GIO_MODULE_DIR"], !chosen.isEmpty { return chosen }
        return glibVariable("giomoduledir", environment: environment) ?? "/usr/lib/x86_64-linux-gnu/gio/modules"
    }

    /// The command that writes the cache anew (what the package triggers run).
    static func refreshCommand(for directory: String, environment: [String: String]) -> String {
        (glibVariable("gio_querymodules", environment: environment) ?? "gio-querymodules") + " " + directory
    }

    private static func glibVariable(_ name: String, environment: [String: String]) -> String? {
        let answer = Processes.output("/usr/bin/pkg-config", ["--variable=\(name)", "gio-2.0"], environment: environment)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return answer.isEmpty ? nil : answer
    }

    /// Seconds since the epoch: the file's ctime, or the later of its ctime and mtime (GLib's rule for the cache).
    private static func changeTime(_ path: String, mtimeToo: Bool) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return mtimeToo ? max(info.st_ctim.tv_sec, info.st_mtim.tv_sec) : info.st_ctim.tv_sec
    }
}
