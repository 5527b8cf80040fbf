import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

// desktop-ui-checks --scenario NAME --server URL --key-file PATH --out DIR
// Runs one wizard scenario in a real GTK process (under xvfb-run), printing PASS/FAIL lines and
// "N passed, M failed". The key is read from the file, as a user would paste it.
DesktopApplication.prepareProcess()
var options: [String: String] = [:]
var iterator = CommandLine.arguments.dropFirst().makeIterator()
while let name = iterator.next(), let value = iterator.next() { options[String(name.dropFirst(2))] = value }
guard let scenarioName = options["scenario"], let out = options["out"] else {
    print("usage: desktop-ui-checks --scenario NAME --server URL --key-file PATH --out DIR")
    exit(2)
}
Localization.setUp(localeDirectory: Localization.directory())
ProcessHardening.apply(.desktop)
let key =
    options["key-file"].flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?
    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

let status: Int32 = MainActor.assumeIsolated {
    // Deterministic screens: no transitions mid-snapshot (this also exercises the app honouring
    // gtk-enable-animations).
    let app = DesktopApplication(unique: false, startHidden: options["hidden"] == "1")
    let driver = Driver(app: app, scenario: scenarioName, outputDirectory: URL(fileURLWithPath: out))
    let context = ScenarioContext(server: options["server"] ?? "", key: key, options: options)
    var started = false
    Signals.connect(UnsafeMutableRawPointer(app.application), "activate") {
        guard !started else { return }
        started = true
        Properties.setBool(UnsafeMutableRawPointer(gtk_settings_get_default()!), "gtk-enable-animations", false)
        // Right-to-left layout check: the whole app mirrored, as for Arabic or Hebrew (after
        // GTK's start-up, which sets the direction from the locale; before any window exists).
        if scenarioName == "MainScenarios.rightToLeft" { gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL) }
        g_application_hold(UnsafeMutableRawPointer(app.application).assumingMemoryBound(to: GApplication.self))
        Task { @MainActor in
            await ScenarioCatalog.run(scenarioName, driver, context)
            print("\(driver.passed) passed, \(driver.failed) failed")
            exit(driver.failed == 0 && driver.passed > 0 ? 0 : 1)
        }
    }
    return app.run()
}
exit(status)
