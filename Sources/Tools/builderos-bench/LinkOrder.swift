import Foundation

/// `--only link-order`: which functions of an executable a run executes, found with callgrind, written
/// as lld's symbol ordering file (`link-order/<product>.txt`, used by release links; see Package.swift).
/// Release installs carry no symbols, so the run uses a copy of the unstripped build with only its
/// debug information removed (valgrind cannot read Swift's), placed beside the installed executable
/// so that it finds the prefix's schema, translations and icons the same way.
enum LinkOrder {
    /// Runs `product` (from `unstripped`, as a copy in `installedBin`) under callgrind with `arguments`
    /// and returns the names of its functions that ran.
    static func functions(
        of product: String, unstripped: String, installedBin: String, arguments: [String],
        environment: [String: String], work: URL
    ) throws -> Set<String> {
        let copy = (installedBin as NSString).appendingPathComponent(product + ".profiled")
        let output = work.appendingPathComponent("callgrind-\(product)-\(UUID().uuidString).out").path
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: (unstripped as NSString).appendingPathComponent(product), toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy); try? FileManager.default.removeItem(atPath: output) }
        guard Processes.run("/usr/bin/strip", ["--strip-debug", copy], environment: environment).status == 0 else {
            throw POSIXError(.ENOEXEC)
        }
        let valgrind = ["--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + output, copy] + arguments
        _ = Processes.run("/usr/bin/valgrind", valgrind, environment: environment)
        return try executed(in: String(contentsOfFile: output, encoding: .utf8), object: "/" + product + ".profiled")
    }

    /// The `fn=` entries callgrind recorded for the object whose path ends with `object` (names are
    /// compressed: `(id) name` on first use, `(id)` after).
    static func executed(in profile: String, object: String) -> Set<String> {
        var objects: [Substring: Substring] = [:], functions: [Substring: Substring] = [:]
        var current: Substring = ""
        var names = Set<String>()
        for line in profile.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), line[line.index(after: equals)...].hasPrefix("(") else { continue }
            let key = line[..<equals]
            guard ["ob", "cob", "fn", "cfn"].contains(key) else { continue }
            let rest = line[line.index(equals, offsetBy: 2)...]
            guard let close = rest.firstIndex(of: ")") else { continue }
            let id = rest[..<close]
            let named = rest[rest.index(after: close)...].drop(while: { $0 == " " })
            if key.hasSuffix("ob") {
                if !named.isEmpty { objects[id] = named }
                if key == "ob" { current = objects[id] ?? "" }
            } else {
                if !named.isEmpty { functions[id] = named }
                // Recursion levels are named `f'2`, `f'3`…: the symbol is `f`.
                if key == "fn", current.hasSuffix(object), let name = functions[id]?.split(separator: "'").first, !name.hasPrefix("0x") {
                    names.insert(String(name))
                }
            }
        }
        return names
    }

    /// Writes the ordering file: each group's functions in turn (lld places earlier lines first), so the
    /// functions of the first run stay together and those only later runs add follow them.
    static func write(_ groups: [Set<String>], product: String, to folder: String) throws {
        let header = """
            # \(product): the functions a release build runs at start-up (and the app at idle), laid out
            # first and side by side by lld (--symbol-ordering-file). Made by meson-helpers/update-link-order
            # from callgrind runs; regenerate after larger changes. A stale line costs nothing.

            """
        var seen = Set<String>(), lines: [String] = []
        for group in groups {
            lines += group.subtracting(seen).sorted()
            seen.formUnion(group)
        }
        let path = (folder as NSString).appendingPathComponent(product + ".txt")
        try (header + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        print("  \(path): \(lines.count) functions")
    }
}
