import CGio
import Foundation
import Testing

@testable import BuilderOSKit

/// The GSettings store against a keyfile backend of its own (GLib's real keyfile backend; the schema compiled from data/).
struct SettingsStoreTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bos-settings-\(UUID().uuidString)")
    var keyfile: URL { root.appendingPathComponent("keyfile") }

    func store() -> SettingsStore { SettingsStore(keyfile: keyfile, configHome: root) }

    @Test func freshStoreGivesTheSchemaDefaults() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let s = store()
        #expect(s.isAvailable)
        let settings = s.load()
        #expect(settings.servers.isEmpty && settings.activeServer == nil && settings.appearance == .automatic && settings.page == "chat")
        #expect(settings.windowWidth == 1000 && settings.windowHeight == 720 && settings.autoRefreshSeconds == 60)
        #expect(settings.notifications == NotificationKinds() && !settings.keepRunningInBackground)
        #expect(settings.deviceID.hasPrefix("desktop-") && !s.hasSavedServer)
    }

    /// The CLI reads through a store like this one (`SettingsStore.forOneRead`) because its watch on
    /// the keyfile ends with the store: a process that exits holding an inotify watch waits for the
    /// kernel to retire it. The watches are read from /proc (the fdinfo of GIO's inotify instance).
    @Test func aStoreWithAKeyfileOfItsOwnStopsWatchingItWhenReleased() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var info = stat()
        #expect(stat(root.path, &info) == 0)
        var s: SettingsStore? = store()
        _ = s?.load()
        #expect(Self.watchedInodes().contains(UInt64(info.st_ino)), "the backend watches the keyfile's folder while the store lives")
        s = nil
        #expect(!Self.watchedInodes().contains(UInt64(info.st_ino)))
    }

    /// Every inode an inotify instance of this process watches ("inotify wd:1 ino:1f2e ..." in fdinfo).
    static func watchedInodes() -> Set<UInt64> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var inodes: Set<UInt64> = []
        for fd in fds {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd),
                target.contains("inotify"), let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + fd, encoding: .utf8)
            else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("inotify ") {
                for field in line.split(separator: " ") where field.hasPrefix("ino:") {
                    if let inode = UInt64(field.dropFirst(4), radix: 16) { inodes.insert(inode) }
                }
            }
        }
        return inodes
    }

    @Test func everyPreferenceRoundTripsThroughTheKeyfile() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = store().load()
        try settings.addServer(ServerAddress.parse("https://builder.example.com"), fileExists: { _ in false })
        settings.appearance = .dark
        (settings.windowWidth, settings.windowHeight, settings.page) = (1280, 800, "power")
        settings.autoRefreshSeconds = 300
        settings.notifications.replies = false
        settings.notifications.sleep = false
        settings.updateActiveServer { ($0.wakeMAC, $0.wakeBroadcast) = ("3c:22:fb:12:34:56", "192.168.1.255:9") }
        settings.keepRunningInBackground = true
        try store().save(settings)
        #expect(store().load() == settings)
        let text = try String(contentsOf: keyfile, encoding: .utf8)
        #expect(text.contains("[app/builderos/Desktop]") && text.contains("appearance='dark'") && text.contains("wake-mac='3c:22:fb:12:34:56'"))
        // Only what differs from the defaults is written.
        #expect(!text.contains("notify-connection"))
    }

    /// The typed keys and the schema name the same keys: no key the store cannot reach, none it invents.
    @Test func settingKeysAreTheSchemasKeys() throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/app.builderos.Desktop.gschema.xml")
        let xml = try String(contentsOf: schema, encoding: .utf8)
        let names = Set(xml.matches(of: /<key name="([^"]+)"/).map { String($0.1) })
        let serverSchema = try #require(xml.firstRange(of: "<schema id=\"app.builderos.Desktop.Server\"")?.lowerBound)
        let appKeys = Set(xml[..<serverSchema].matches(of: /<key name="([^"]+)"/).map { String($0.1) })
        let serverKeys = Set(xml[serverSchema...].matches(of: /<key name="([^"]+)"/).map { String($0.1) })
        #expect(appKeys == Set(SettingKey.allCases.map(\.rawValue)))
        #expect(serverKeys == Set(ServerSettingKey.allCases.map(\.rawValue)))
        #expect(names == appKeys.union(serverKeys))
        // The `page` key's choices are the main window's pages, in the same order as their Ctrl+1…6.
        let pageKey = try #require(xml.firstRange(of: "<key name=\"page\"").map { xml[$0.lowerBound...] })
        let choices = pageKey[..<(pageKey.firstRange(of: "</choices>")?.lowerBound ?? pageKey.endIndex)]
            .matches(of: /<choice value="([^"]+)"/).map { String($0.1) }
        #expect(choices == PageID.allCases.map(\.rawValue))
        #expect(Set(TerminalProfile.allCases.map { ServerSettingKey.terminalCommand($0) }).count == TerminalProfile.allCases.count)
    }

    /// A value the schema refuses (a page it does not list) fails the save, and nothing of that save is kept.
    @Test func aRefusedWriteIsAnErrorAndKeepsNothing() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = store().load()
        settings.appearance = .dark
        settings.page = "no-such-page"
        #expect(throws: BuilderOSError.self) { try store().save(settings) }
        let loaded = store().load()
        #expect(loaded.appearance == .automatic && loaded.page == "chat")
    }

    @Test func outOfRangeSizesAreClampedNotRefused() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = store().load()
        (settings.windowWidth, settings.autoRefreshSeconds) = (12, 999_999)
        try store().save(settings)
        let loaded = store().load()
        #expect(loaded.windowWidth == 360 && loaded.autoRefreshSeconds == 3600)
    }

    @Test func settingsOfEarlierVersionsAreImportedOnce() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let legacy = root.appendingPathComponent("builderos-desktop/settings.json")
        try FileManager.default.createDirectory(at: legacy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"server_url":"http://127.0.0.1:8765","device_id":"desktop-old","appearance":"light","notifications":{"replies":false}}"#.utf8)
            .write(to: legacy)
        let settings = store().load()
        #expect(settings.activeServer?.address == "http://127.0.0.1:8765" && settings.deviceID == "desktop-old")
        #expect(settings.servers.count == 1 && settings.activeServer?.historyFile == HistoryStore.firstFileName)
        #expect(settings.appearance == .light && !settings.notifications.replies && settings.notifications.sleep)
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
    }

    @Test func unreadableLegacyFileIsKeptAndNothingImported() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let legacy = root.appendingPathComponent("builderos-desktop/settings.json")
        try FileManager.default.createDirectory(at: legacy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: legacy)
        #expect(store().load().servers.isEmpty)
        #expect(FileManager.default.fileExists(atPath: legacy.path))
    }
}

/// Several servers in the settings, and the upgrade of a profile made before there could be several.
struct ServerSettingsTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bos-servers-\(UUID().uuidString)")
    var keyfile: URL { root.appendingPathComponent("keyfile") }

    func store() -> SettingsStore { SettingsStore(keyfile: keyfile, configHome: root) }

    /// The keyfile GLib wrote for today's release: `builderos login`, then Wake-on-LAN, a preview host, a terminal
    /// command and the appearance set through GSettings (Fixtures/single-server-profile.keyfile).
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/single-server-profile.keyfile")

    @Test func aSingleServerProfileBecomesTheFirstServerWithEverythingInPlaceOnce() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: keyfile)

        let upgraded = store().load()
        let server = try #require(upgraded.activeServer)
        #expect(upgraded.servers.count == 1)
        // The same address: the keyring item (keyed by it) is found as it is.
        #expect(server.address == "http://127.0.0.1:18777" && server.name == "127.0.0.1:18777")
        // The same history file: every conversation and the outbox stay where they are.
        #expect(server.historyFile == HistoryStore.firstFileName)
        #expect(server.wakeMAC == "3c:22:fb:12:34:56" && server.previewHost == "100.64.1.2")
        #expect(server.terminalCommands == [.shell: "", .jarvis: "claude", .codex: "codex --yolo"])
        // App-wide settings stay app-wide.
        #expect(upgraded.appearance == .dark && upgraded.deviceID == "desktop-64e843d0-1af3-43b2-9345-55f18a88da5d")
        let text = try String(contentsOf: keyfile, encoding: .utf8)
        let appGroup = text.components(separatedBy: "[app/builderos/Desktop]\n")[1].components(separatedBy: "\n[")[0]
        #expect(!appGroup.contains("server-url") && !appGroup.contains("wake-mac") && !appGroup.contains("terminal-codex-command"), "\(text)")

        // A second start migrates nothing: the same server, not a second one.
        #expect(store().load() == upgraded)
    }

    @Test func serversRoundTripAndAForgottenOneLeavesNoSettings() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var s = store().load()
        let mini = try s.addServer(ServerAddress.parse("https://mini.example.com"), fileExists: { _ in false })
        s.updateActiveServer { $0.wakeMAC = "3c:22:fb:12:34:56" }
        let studio = try s.addServer(ServerAddress.parse("http://100.64.0.5:8080"), name: "Studio", fileExists: { _ in false })
        s.updateActiveServer {
            $0.previewHost = "100.64.0.5"; $0.terminalCommands[.jarvis] = "claude --resume"
            $0.caFile = "/etc/builderos/studio-ca.pem"
        }
        try store().save(s)
        #expect(store().load() == s)
        #expect(store().load().activeServerID == studio.id)

        s.removeServer(id: studio.id)
        try store().save(s)
        let after = store().load()
        #expect(after.servers == [s.servers[0]] && after.activeServerID == mini.id)
        let text = try String(contentsOf: keyfile, encoding: .utf8)
        #expect(!text.contains("100.64.0.5") && !text.contains("Studio") && !text.contains("claude --resume") && !text.contains("studio-ca"))
    }

    /// `load` keeps what it read until a key changes: at once after a save, and after GSettings reports a write
    /// made elsewhere (here a second store on the same file, as the CLI's process is), on the main context.
    @Test func aKeptReadingGivesWayToASaveAndToAWriteElsewhere() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let app = store()
        var s = app.load()
        let mini = try s.addServer(ServerAddress.parse("https://mini.example.com"), fileExists: { _ in false })
        try app.save(s)
        #expect(app.load().servers.map(\.id) == [mini.id])

        let cli = store()
        var renamed = cli.load()
        renamed.servers[0].customName = "Studio"
        renamed.appearance = .dark
        try cli.save(renamed)
        #expect(Self.mainContextIterated(until: { app.load().servers.first?.name == "Studio" && app.load().appearance == .dark }))
    }

    /// Runs the main context (GSettings delivers a change there) until `done`, for at most 10 s.
    static func mainContextIterated(until done: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(10)
        while !done() {
            guard Date() < end else { return false }
            // Another test may own the context for a moment: then nothing is dispatched, and the loop comes back.
            if g_main_context_iteration(nil, 0) == 0 { usleep(5_000) }
        }
        return true
    }
}
