import Foundation
import ProcessHarness
import Testing

/// `meson setup && meson install` into a temporary prefix, then the installed CLI and app run from there: they find
/// the installed settings schema, translations and icons with nothing of the checkout on their paths.
/// The executables are the ones this test run built (`-Dprebuilt_bin_dir`): SwiftPM keeps its build folder locked
/// while `swift test` runs, so the install cannot build them again here.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["BUILDEROS_TEST_KEYRING"] == "1",
        "needs the private Secret Service that meson-helpers/run-tests starts"))
struct InstallTests {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func installIntoATemporaryPrefixThenRunFromThere() async throws {
        let sandbox = try CLISandbox()
        let (build, prefix) = (sandbox.root.appendingPathComponent("build"), sandbox.root.appendingPathComponent("prefix"))
        let setup = try await sandbox.run(
            [
                "setup", build.path, Self.source.path, "--prefix", prefix.path, "-Dswiftpm_configuration=debug",
                "-Dprebuilt_bin_dir=" + Binaries.directory.path,
            ], executable: "/usr/bin/meson")
        #expect(setup.status == 0, "\(setup.stdout.suffix(2000))\(setup.stderr)")
        let install = try await sandbox.run(["install", "-C", build.path], executable: "/usr/bin/meson")
        #expect(install.status == 0, "\(install.stdout.suffix(2000))\(install.stderr)")

        let share = prefix.appendingPathComponent("share")
        for file in [
            "bin/builderos-desktop", "bin/builderos", "bin/builderos-server",
            "share/applications/app.builderos.Desktop.desktop", "share/metainfo/app.builderos.Desktop.metainfo.xml",
            "share/glib-2.0/schemas/gschemas.compiled", "share/builderos-desktop/design-tokens.json",
            "share/builderos-desktop/start-fonts-seed",
            "share/icons/hicolor/scalable/apps/app.builderos.Desktop.svg", "share/icons/hicolor/symbolic/apps/app.builderos.Desktop-symbolic.svg",
            "share/icons/hicolor/scalable/status/app.builderos.Desktop-connected.svg",
            "share/icons/hicolor/48x48/apps/app.builderos.Desktop.png", "share/icons/hicolor/22x22/status/app.builderos.Desktop-connected.png",
            "share/locale/de/LC_MESSAGES/builderos-desktop.mo", "share/locale/es/LC_MESSAGES/builderos-desktop.mo",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) is installed")
        }
        let entry = share.appendingPathComponent("applications/app.builderos.Desktop.desktop")
        #expect(try String(contentsOf: entry, encoding: .utf8).contains("Comment[de]=Mit Jarvis und Codex chatten"), "the entry is translated")
        #expect(try await sandbox.run([entry.path], executable: "/usr/bin/desktop-file-validate").status == 0)
        let metainfo = try await sandbox.run(
            ["validate", "--pedantic", "--no-net", share.appendingPathComponent("metainfo/app.builderos.Desktop.metainfo.xml").path],
            executable: "/usr/bin/appstreamcli")
        #expect(metainfo.status == 0, "\(metainfo.stdout)")

        // The installed CLI: its translations, then a sign-in that saves through the installed schema.
        let cli = prefix.appendingPathComponent("bin/builderos").path
        let german = try await sandbox.run(["status"], environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"], executable: cli)
        #expect(german.status == 3 && german.stderr.contains("Melden Sie sich zuerst an"), "\(german.stderr)")
        let server = try ServerProcess()
        defer { server.stop() }
        let login = try await sandbox.run(["login", "--server", server.url], stdin: server.key, executable: cli)
        #expect(login.status == 0, "\(login.stderr)")
        #expect((try? String(contentsOf: sandbox.settingsFile, encoding: .utf8))?.contains("address='\(server.url)'") == true)

        // The installed app opens its main window under Xvfb (and leaves one second after the first frame),
        // signed in, in a D-Bus session and keyring of its own: on the shared test bus another test's app
        // can own the application id, and this one would only hand its activation over to it (or fail
        // to, as that app quits: "Failed to register … NoReply", seen in CI).
        let keyring = Self.source.appendingPathComponent("meson-helpers/with-test-keyring").path
        let script = #""$1" login --server "$2" < "$3" > /dev/null && exec timeout 60 xvfb-run -a -n 170 "$4""#
        let app = try await sandbox.run(
            [
                keyring, "/bin/sh", "-c", script, "sh", cli, server.url, server.keyFile.path,
                prefix.appendingPathComponent("bin/builderos-desktop").path,
            ],
            environment: [
                "GSK_RENDERER": "cairo", "BUILDEROS_BENCHMARK_EXIT_AFTER_FIRST_FRAME": "1",
                "BUILDEROS_IN_TEST_SESSION": "",
            ],
            executable: "/usr/bin/env")
        #expect(app.status == 0, "\(app.stderr.suffix(2000))")
        #expect(
            !app.stderr.contains("not installed completely") && !app.stderr.contains("design-tokens.json not found"), "\(app.stderr.suffix(2000))")
        _ = try? await sandbox.run(["logout"], executable: cli)
    }
}
