import Foundation
import CGio

/// Finds the compiled `app.builderos.Desktop` GSettings schema wherever this binary runs from:
///  1. an installed prefix: `<prefix>/bin/x` → `<prefix>/share/glib-2.0/schemas`;
///  2. GLib's own search path (`XDG_DATA_DIRS`, `GSETTINGS_SCHEMA_DIR`);
///  3. the build tree: `<bin>/schemas`, compiled from the source tree's `data/` when missing or older
///     than the XML (so `swift run` works without an install step).
/// Binary-relative places come first so that a build or a prefix never picks up an older system copy.
enum SettingsSchemaLocator {
    static let schemaID = "app.builderos.Desktop"
    static let sourceFileName = "app.builderos.Desktop.gschema.xml"

    static func locate() -> OpaquePointer? {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = binary.deletingLastPathComponent().appendingPathComponent("share/glib-2.0/schemas")
        if let schema = lookUp(inDirectory: installed.path) { return schema }
        if let schema = lookUpInDefaultSource() { return schema }
        let buildTree = binary.appendingPathComponent("schemas")
        compileFromSourceTree(above: binary, into: buildTree)
        return lookUp(inDirectory: buildTree.path)
    }

    private static func lookUp(inDirectory directory: String) -> OpaquePointer? {
        guard FileManager.default.fileExists(atPath: directory + "/gschemas.compiled") else { return nil }
        guard let source = g_settings_schema_source_new_from_directory(directory, nil, 0, nil) else { return nil }
        defer { g_settings_schema_source_unref(source) }
        return g_settings_schema_source_lookup(source, schemaID, 0)
    }

    private static func lookUpInDefaultSource() -> OpaquePointer? {
        guard let source = g_settings_schema_source_get_default() else { return nil }
        return g_settings_schema_source_lookup(source, schemaID, 1)
    }

    /// The source tree is the nearest folder above the binary holding `Package.swift` and the schema XML.
    private static func compileFromSourceTree(above binary: URL, into target: URL) {
        var folder = binary
        while folder.path != "/" {
            let data = folder.appendingPathComponent("data")
            let xml = data.appendingPathComponent(sourceFileName)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
               FileManager.default.fileExists(atPath: xml.path) {
                if isStale(compiled: target.appendingPathComponent("gschemas.compiled"), source: xml) {
                    run("glib-compile-schemas", ["--strict", "--targetdir=" + target.path, data.path], creating: target)
                }
                return
            }
            folder = folder.deletingLastPathComponent()
        }
    }

    private static func isStale(compiled: URL, source: URL) -> Bool {
        let date = { (url: URL) in (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date }
        guard let built = date(compiled), let edited = date(source) else { return true }
        return built < edited
    }

    private static func run(_ tool: String, _ arguments: [String], creating folder: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        do { try process.run(); process.waitUntilExit() } catch { return }
    }
}
