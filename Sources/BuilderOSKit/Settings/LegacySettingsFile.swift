import Foundation

/// Versions before the GSettings schema kept the settings in `$XDG_CONFIG_HOME/builderos-desktop/settings.json`.
/// The first start with GSettings moves them over once and removes the file, so nobody has to sign in again.
struct LegacySettingsFile {
    let url: URL

    init(configHome: String = LegacySettingsFile.userConfigHome()) {
        url = URL(fileURLWithPath: configHome).appendingPathComponent("builderos-desktop/settings.json")
    }

    static func userConfigHome() -> String {
        getenv("XDG_CONFIG_HOME").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
    }

    func importOnce(into store: SettingsStore) {
        guard let data = try? Data(contentsOf: url) else { return }
        // Unreadable JSON is not imported, but kept on disk for whoever wants to look at it.
        guard let old = try? JSONDecoder().decode(AppSettings.self, from: data) else { return }
        guard (try? store.save(old)) != nil else { return }
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())  // only when empty
    }
}
