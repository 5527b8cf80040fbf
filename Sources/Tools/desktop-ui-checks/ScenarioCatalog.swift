import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

struct ScenarioContext {
    var server: String
    var key: String
    /// Every other --name value the test passed (ports, files, the server binary).
    var options: [String: String] = [:]
}

/// One UI scenario: it drives the app and records its verdicts on the driver.
typealias Scenario = @MainActor (Driver, ScenarioContext) async -> Void

/// A group of UI scenarios: one type per file, the file named like the type. A scenario's name is
/// its group's type and its own name: `desktop-ui-checks --scenario MainScenarios.pages`.
@MainActor
protocol ScenarioGroup {
    static var scenarios: [String: Scenario] { get }
}

/// Every group, and the scenario a `--scenario` name stands for.
@MainActor
enum ScenarioCatalog {
    static let groups: [any ScenarioGroup.Type] = [
        WizardScenarios.self, GermanScenario.self, MainScenarios.self, ResilienceScenarios.self, PortalScenario.self,
        TrayScenario.self, TerminalScenario.self, PreviewScenario.self, StreamingScenario.self,
        SearchScenario.self, TransferScenario.self, ServersScenario.self, SystemMonitorsScenario.self, BenchSearchScenario.self,
        BenchSwitchScenario.self,
        BenchStreamScenario.self,
        BenchScrollScenario.self,
        TerminalBenchScenario.self,
    ]

    static func scenario(named name: String) -> Scenario? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let group = groups.first(where: { String(describing: $0) == parts[0] }) else { return nil }
        return group.scenarios[parts[1]]
    }

    /// Runs the scenario `name`: once a window is up, unless the app was started hidden (to the tray).
    static func run(_ name: String, _ d: Driver, _ c: ScenarioContext) async {
        guard let scenario = scenario(named: name) else { return d.expect(false, "known scenario", name) }
        if c.options["hidden"] != "1" {
            guard await d.wait(until: { d.window(named: "setup-wizard") != nil || d.window(named: "main-window") != nil }) else {
                return d.expect(false, "a window opens")
            }
        }
        await scenario(d, c)
    }
}
