import CGio
import Foundation

/// Finds the compiled `app.builderos.Desktop` GSettings schemas (the app's and each server's) wherever this binary runs from:
///  1. an installed prefix: `<prefix>/bin/x` → `<prefix>/share/glib-2.0/schemas`;
///  2. GLib's own search path (`XDG_DATA_DIRS`, `GSETTINGS_SCHEMA_DIR`);
///  3. the build folder: `<bin>/schemas`, compiled from the checkout's `data/` when missing or older than the XML
///     (so `swift run` works without an install step).
/// The prefix comes first so that an install never picks up an older system copy.
enum SettingsSchemaLocator {
    static let schemaID = BuilderOSKit.applicationID
    static let serverSchemaID = schemaID + ".Server"

    static func locate(_ id: String = schemaID) -> OpaquePointer? {
        if let schema = lookUp(id, inDirectory: SourceTree.installedShare.appendingPathComponent("glib-2.0/schemas").path) { return schema }
        if !SourceTree.runsFromBuildFolder, let schema = lookUpInDefaultSource(id) { return schema }
        let buildFolder = SourceTree.binaryFolder.appendingPathComponent("schemas")
        if SourceTree.runsFromBuildFolder {
            let data = SourceTree.root.appendingPathComponent("data")
            if SourceTree.isStale(
                buildFolder.appendingPathComponent("gschemas.compiled"), sources: [data.appendingPathComponent("\(schemaID).gschema.xml")])
            {
                try? FileManager.default.createDirectory(at: buildFolder, withIntermediateDirectories: true)
                SourceTree.run("glib-compile-schemas", ["--strict", "--targetdir=" + buildFolder.path, data.path])
            }
        }
        return lookUp(id, inDirectory: buildFolder.path) ?? lookUpInDefaultSource(id)
    }

    private static func lookUp(_ id: String, inDirectory directory: String) -> OpaquePointer? {
        guard FileManager.default.fileExists(atPath: directory + "/gschemas.compiled") else { return nil }
        guard let source = g_settings_schema_source_new_from_directory(directory, nil, 0, nil) else { return nil }
        defer { g_settings_schema_source_unref(source) }
        return g_settings_schema_source_lookup(source, id, 0)
    }

    private static func lookUpInDefaultSource(_ id: String) -> OpaquePointer? {
        guard let source = g_settings_schema_source_get_default() else { return nil }
        return g_settings_schema_source_lookup(source, id, 1)
    }
}
