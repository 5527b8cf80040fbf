import Foundation

/// The checkout this library was built from, for running from the build folder: data files that an install would
/// put under `<prefix>/share` (compiled settings schema, translations) are made from it on demand.
public enum SourceTree {
    /// The checkout holding the build folder (`.build`, `.build-*`) the executable runs from; else the
    /// executable's prefix, which has no checkout's files. Found from the executable's place, not from
    /// `#filePath`, so that an installed executable holds no path of the machine that built it.
    public static let root: URL = {
        let path = binaryFolder.path
        guard let build = path.range(of: "/.build") else { return binaryFolder.deletingLastPathComponent() }
        return URL(fileURLWithPath: String(path[..<build.lowerBound]))
    }()

    /// The folder of the running executable, read once from `/proc/self/exe`: `argv[0]` is only a
    /// name when the program was found through `PATH` (`builderos status`), which made an installed
    /// `<prefix>/bin/builderos` look for its translations beside the working directory.
    public static let binaryFolder: URL = {
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }()

    /// `<prefix>/share` when the executable is installed as `<prefix>/bin/x`.
    public static var installedShare: URL { binaryFolder.deletingLastPathComponent().appendingPathComponent("share") }

    /// A file the app ships in `data/`: installed in `<prefix>/share/builderos-desktop/` beside the
    /// executable, or the checkout's `data/` when run from the build folder; nil when neither has it.
    public static func dataFile(_ name: String) -> URL? {
        let candidates = [
            installedShare.appendingPathComponent("builderos-desktop/\(name)"), root.appendingPathComponent("data/\(name)"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Whether the executable runs from SwiftPM's build folder inside this checkout (`.build`, `.build-*`).
    public static var runsFromBuildFolder: Bool {
        binaryFolder.path.contains("/.build")
    }

    /// Whether `product` is missing or older than any of `sources`.
    static func isStale(_ product: URL, sources: [URL]) -> Bool {
        let date = { (url: URL) in (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date }
        guard let built = date(product) else { return true }
        return sources.contains { (date($0) ?? .distantFuture) > built }
    }

    /// Runs a build tool from PATH and waits for it (output is left alone: it only speaks on errors).
    static func run(_ tool: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        do { try process.run(); process.waitUntilExit() } catch { return }
    }
}
