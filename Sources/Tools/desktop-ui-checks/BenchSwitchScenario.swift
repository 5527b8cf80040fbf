import BuilderOSKit
import CGtk
import DesktopUI
import Foundation
import GtkKit

/// For `meson-helpers/benchmark`: two servers, each with a 10,000-message conversation (the benchmark seeds them,
/// titled by `--titles`, the active server's last). Switches back and forth `--switches` times from the code the
/// header's switcher runs, each timed from the switch until a frame with the other server's conversation has been
/// painted. The first switch to each server makes its session (its history opened); the later ones find it in the
/// background. Prints MEASURE lines; asserts nothing about timing.
@MainActor
enum BenchSwitchScenario: ScenarioGroup {
    static let scenarios: [String: Scenario] = ["switching": run]

    static func run(_ d: Driver, _ c: ScenarioContext) async {
        d.readsAccessibleNames = false  // it measures
        guard let main = await MainScenarios.connectedMainWindow(d) else { return }
        let titles = (c.options["titles"] ?? "").split(separator: ",").map(String.init)
        let servers = SettingsStore().load().servers
        guard titles.count == 2, servers.count == 2 else { return d.expect(false, "two servers and their conversations' titles") }
        d.activate(PageID.chat.windowAction, in: main)
        await d.nextFrame(main)
        d.expect(d.texts(main).contains(titles[1]), "the active server's conversation is shown")
        var first: [Double] = [], later: [Double] = []
        let switches = Int(c.options["switches"] ?? "") ?? 10
        for i in 0..<switches {
            let target = i % 2  // servers[0] first: it has no session yet
            let start = Date()
            d.app.switchServer(to: servers[target].id)
            var frames = 0
            while !d.texts(main).contains(titles[target]) && frames < 120 {
                await d.oneFrame(main)
                frames += 1
            }
            await d.oneFrame(main)  // the frame that shows it has painted
            let ms = Date().timeIntervalSince(start) * 1000
            d.expect(d.texts(main).contains(titles[target]), "switch \(i + 1) shows the other server's conversation")
            if i < 2 { first.append(ms) } else { later.append(ms) }
            try? await Task.sleep(nanoseconds: 300_000_000)
        }
        print(String(format: "MEASURE switch-first-ms=%.1f", first.max() ?? 0))
        if !later.isEmpty {
            print(String(format: "MEASURE switch-median-ms=%.1f", later.sorted()[later.count / 2]))
            print(String(format: "MEASURE switch-worst-ms=%.1f", later.max() ?? 0))
        }
    }
}
