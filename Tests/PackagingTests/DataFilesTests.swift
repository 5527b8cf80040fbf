import Foundation
import ProcessHarness
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The desktop integration files pass the freedesktop validators, and every icon is valid SVG.
struct DataFilesTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data")

    @Test func desktopEntryValidates() async throws {
        let result = try await CLISandbox().run(
            [Self.data.appendingPathComponent("app.builderos.Desktop.desktop").path],
            executable: "/usr/bin/desktop-file-validate")
        #expect(result.status == 0 && !result.stdout.contains("error"), "\(result.stdout)\(result.stderr)")
    }

    /// The metainfo as installed: its releases filled from debian/changelog.
    @Test func metainfoValidatesPedantically() async throws {
        let sandbox = try CLISandbox()
        let output = sandbox.root.appendingPathComponent("app.builderos.Desktop.metainfo.xml")
        let fill = try await sandbox.run(
            [
                Self.data.appendingPathComponent("app.builderos.Desktop.metainfo.xml").path,
                Self.source.appendingPathComponent("debian/changelog").path, output.path,
            ], executable: Self.source.appendingPathComponent("meson-helpers/metainfo-releases").path)
        #expect(fill.status == 0, "\(fill.stderr)")
        let result = try await sandbox.run(["validate", "--pedantic", "--no-net", output.path], executable: "/usr/bin/appstreamcli")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let metainfo = try String(contentsOf: output, encoding: .utf8)
        #expect(metainfo.contains("<release version=\"\(try Self.changelogVersion())\" date="))
        for part in ["<launchable type=\"desktop-id\">", "<binary>builderos</binary>", "<content_rating", "<developer_name>"] {
            #expect(metainfo.contains(part), "\(part)")
        }
    }

    /// A release is written once, in debian/changelog; meson's project and the code's version follow it.
    @Test func theVersionIsTheChangelogsEverywhere() throws {
        let version = try Self.changelogVersion()
        let meson = try String(contentsOf: Self.source.appendingPathComponent("meson.build"), encoding: .utf8)
        #expect(meson.contains("project('builderos-desktop', version: '\(version)'"))
        let code = try String(contentsOf: Self.source.appendingPathComponent("Sources/BuilderOSKit/Support/Version.swift"), encoding: .utf8)
        #expect(code.contains("public static let version = \"\(version)\""))
    }

    static var source: URL { data.deletingLastPathComponent() }

    static func changelogVersion() throws -> String {
        let changelog = try String(contentsOf: source.appendingPathComponent("debian/changelog"), encoding: .utf8)
        let first = try #require(changelog.split(separator: "\n").first)
        return String(try #require(first.firstMatch(of: /\(([^)]+)\)/)).1)
    }

    @Test func settingsSchemaCompilesStrictly() async throws {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("bos-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: target) }
        let result = try await CLISandbox().run(
            ["--strict", "--targetdir=" + target.path, Self.data.path],
            executable: "/usr/bin/glib-compile-schemas")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
        // Every preference has its key (the store reads and writes exactly these).
        let keys = try await CLISandbox().run(
            ["list-keys", "app.builderos.Desktop"], environment: ["GSETTINGS_SCHEMA_DIR": target.path],
            executable: "/usr/bin/gsettings")
        #expect(
            Set(keys.stdout.split(separator: "\n").map(String.init)) == [
                "servers", "active-server", "server-url", "device-id", "appearance", "window-width", "window-height", "page",
                "auto-refresh-seconds", "notify-replies", "notify-connection", "notify-sleep", "wake-mac", "wake-broadcast",
                "keep-running-in-background", "preview-host", "terminal-shell-command", "terminal-jarvis-command", "terminal-codex-command",
            ])
        // Each server's own settings, at a path of its own.
        let serverKeys = try await CLISandbox().run(
            ["list-keys", "app.builderos.Desktop.Server:/app/builderos/Desktop/servers/abc/"], environment: ["GSETTINGS_SCHEMA_DIR": target.path],
            executable: "/usr/bin/gsettings")
        #expect(
            Set(serverKeys.stdout.split(separator: "\n").map(String.init)) == [
                "address", "name", "history-file", "wake-mac", "wake-broadcast", "preview-host", "terminal-shell-command",
                "terminal-jarvis-command", "terminal-codex-command", "ca-file",
            ], "\(serverKeys.stderr)")
    }

    @Test func iconsAreWellFormedSVG() throws {
        let icons = Self.data.appendingPathComponent("icons")
        let files = (FileManager.default.enumerator(atPath: icons.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".svg") }
        #expect(files.contains("hicolor/scalable/apps/app.builderos.Desktop.svg"))
        #expect(files.contains("hicolor/symbolic/apps/app.builderos.Desktop-symbolic.svg"))
        for state in ["connected", "connecting", "disconnected", "failed"] {
            #expect(files.contains("hicolor/scalable/status/app.builderos.Desktop-\(state).svg"))
        }
        for file in files {
            let parser = XMLParser(contentsOf: icons.appendingPathComponent(file))
            #expect(parser?.parse() == true, "\(file)")
        }
    }

    /// The window icon (16–512 px), the tray's state icons (16, 22, 32, 48 px) and the composer's ⚡ are looked up at
    /// sizes that PNG renditions cover, so drawing them needs no SVG renderer (librsvg, loaded at
    /// start-up, costs time and several MiB).
    @Test func everyIconSizeTheAppAsksForHasAPNG() throws {
        let hicolor = Self.data.appendingPathComponent("icons/hicolor")
        var wanted = [16, 24, 32, 48, 64, 128, 256, 512].map { ("apps", "app.builderos.Desktop", $0) }
        for state in ["connected", "connecting", "disconnected", "failed"] {
            wanted += [16, 22, 32, 48].map { ("status", "app.builderos.Desktop-\(state)", $0) }
        }
        // The composer's ⚡, symbolic (recoloured by GTK): at 16 px, and 32 for a screen at twice the scale.
        wanted += [16, 32].map { ("actions", "builderos-quick-actions-symbolic.symbolic", $0) }
        for (context, name, size) in wanted {
            let file = hicolor.appendingPathComponent("\(size)x\(size)/\(context)/\(name).png")
            let bytes = try [UInt8](Data(contentsOf: file))
            // PNG signature, then the IHDR chunk's width and height (big-endian, bytes 16–23).
            #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(file.lastPathComponent) is a PNG")
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == size && height == size, "\(context)/\(name) at \(size) px is \(width)×\(height)")
        }
    }
}
