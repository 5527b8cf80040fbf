import BuilderOSKit
import Foundation
import ToolSupport

// builderos-bench --bin DIR [--runs N] [--stream-seconds S]
// Run by meson-helpers/benchmark (under xvfb-run and a private keyring). Prints one table of
// medians and ratios, every reference measured in the same run. Not part of the tests.
var options: [String: String] = [:]
var iterator = CommandLine.arguments.dropFirst().makeIterator()
while let name = iterator.next(), let value = iterator.next() { options[String(name.dropFirst(2))] = value }
let bin = options["bin"] ?? ".build/debug"
let runs = Int(options["runs"] ?? "") ?? 10
let streamSeconds = Int(options["stream-seconds"] ?? "") ?? 10
func binary(_ name: String) -> String { (bin as NSString).appendingPathComponent(name) }

let work = FileManager.default.temporaryDirectory.appendingPathComponent("builderos-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
let keyFile = work.appendingPathComponent("api-key").path
let base = ProcessInfo.processInfo.environment.merging(["GSK_RENDERER": "cairo", "LANGUAGE": "C"]) { $1 }

/// A private configuration (settings + history) signed in to `server`, with `messages` in one conversation.
@MainActor
func sandbox(_ name: String, server: ServerChild, messages: Int) throws -> [String: String] {
    let root = work.appendingPathComponent(name)
    var env = base
    env["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
    env["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
    let login = Processes.run(binary("builderos"), ["login", "--server", server.url], environment: env, stdin: keyFile)
    guard login.status == 0 else { throw POSIXError(.EACCES) }
    if messages > 0 {
        let history = try HistoryStore(path: root.appendingPathComponent("data/builderos-desktop/history.sqlite3").path)
        let conversation = Conversation(agent: .jarvis, title: "Benchmark")
        history.insert(conversation)
        history.inTransaction {
            for i in 0..<messages {
                history.append(ChatMessage(conversation: conversation.id, role: i % 2 == 0 ? .user : .assistant,
                                           text: i % 2 == 0 ? "question \(i)" : "## Answer \(i)\n\nSome **Markdown** with `code` and a list:\n\n- one\n- two",
                                           state: i % 2 == 0 ? .sent : .complete))
            }
        }
    }
    return env
}

struct Row { var what: String; var ours: String; var reference: String; var ratio: String; var target: String; var verdict: String }
var rows: [Row] = []
@MainActor func add(_ what: String, _ ours: String, _ reference: String, _ ratio: String, _ target: String, _ met: Bool?) {
    rows.append(Row(what: what, ours: ours, reference: reference, ratio: ratio, target: target, verdict: met.map { $0 ? "met" : "MISSED" } ?? "—"))
    print("  \(what): \(ours) vs \(reference) \(ratio)")
}

let server = try ServerChild(binary: binary("builderos-server"), keyFile: keyFile)
defer { server.kill() }
let reference = try ReferenceWindow.build(in: work)
let exitNow = BenchmarkExitVariable.name

do {
    let start1k = try sandbox("thousand", server: server, messages: 1_000)
    let idle = try sandbox("idle", server: server, messages: 0)
    let big = try sandbox("ten-thousand", server: server, messages: 10_000)
    print("Start-up to first frame (\(runs) runs each)…")
    var app: [Double] = [], c: [Double] = []
    for _ in 0..<runs {
        app.append(Processes.run(binary("builderos-desktop"), [], environment: start1k.merging([exitNow: "0"]) { $1 }).seconds)
        c.append(Processes.run(reference, ["0"], environment: base).seconds)
    }
    let (a, r) = (Stats.median(app), Stats.median(c))
    add("start → first frame (1,000-message conversation)", String(format: "%.0f ms", a * 1000), String(format: "%.0f ms (C GTK window)", r * 1000),
        String(format: "%.2f×", a / r), "≤ 1.25×", a / r <= 1.25)

    print("Peak memory…")
    let cPeak = Stats.median((0..<3).map { _ in Double(Processes.run(reference, ["2"], environment: base).peakKiB) })
    let idlePeak = Stats.median((0..<3).map { _ in Double(Processes.run(binary("builderos-desktop"), [], environment: idle.merging([exitNow: "2"]) { $1 }).peakKiB) })
    let bigPeak = Stats.median((0..<3).map { _ in Double(Processes.run(binary("builderos-desktop"), [], environment: big.merging([exitNow: "3"]) { $1 }).peakKiB) })
    add("peak RSS, idle", String(format: "%.1f MiB", idlePeak / 1024), String(format: "%.1f MiB (C GTK window)", cPeak / 1024),
        String(format: "+%.1f MiB", (idlePeak - cPeak) / 1024), "≤ +25 MiB", (idlePeak - cPeak) / 1024 <= 25)
    add("peak RSS, 10,000-message conversation open", String(format: "%.1f MiB", bigPeak / 1024), String(format: "%.1f MiB (C GTK window)", cPeak / 1024),
        String(format: "+%.1f MiB", (bigPeak - cPeak) / 1024), "≤ +60 MiB", (bigPeak - cPeak) / 1024 <= 60)

    print("builderos status vs curl…")
    var status: [Double] = [], curl: [Double] = []
    for _ in 0..<max(runs * 2, 20) {
        status.append(Processes.run(binary("builderos"), ["status"], environment: idle).seconds)
        curl.append(Processes.run("/usr/bin/curl", ["-s", server.url + "/api/status"], environment: base).seconds)
    }
    let (s, k) = (Stats.median(status), Stats.median(curl))
    add("`builderos status`, whole process", String(format: "%.1f ms", s * 1000), String(format: "%.1f ms (curl -s)", k * 1000),
        String(format: "%.2f×", s / k), "≤ 1.5×", s / k <= 1.5)
}

print("Chat round trip…")
let trips = await RoundTrip.measure(server: try ServerAddress.parse(server.url), key: try String(contentsOfFile: keyFile, encoding: .utf8)
    .trimmingCharacters(in: .whitespacesAndNewlines), turns: 200)
add("chat round trip, send → first chunk (200 turns)", String(format: "p50 %.2f ms", Stats.percentile(trips, 50) * 1000),
    String(format: "p99 %.2f ms", Stats.percentile(trips, 99) * 1000), "", "(recorded)", nil)

print("Streaming 2,000 chunks/s for \(streamSeconds) s…")
let paced = try ServerChild(binary: binary("builderos-server"), keyFile: keyFile,
                            extra: ["--paced-chunks-per-second", "2000", "--paced-seconds", String(streamSeconds)])
defer { paced.kill() }
let streamEnv = try sandbox("stream", server: paced, messages: 0)
let scenario = Processes.output("/usr/bin/timeout", ["\(streamSeconds + 60)", binary("desktop-ui-checks"), "--scenario", "bench-stream",
                                                     "--server", paced.url, "--key-file", keyFile, "--out", work.path,
                                                     "--seconds", String(streamSeconds)], environment: streamEnv)
let measures = Dictionary(scenario.split(separator: "\n").filter { $0.hasPrefix("MEASURE ") }.compactMap { line -> (String, Double)? in
    let parts = line.dropFirst(8).split(separator: "=")
    guard parts.count == 2, let v = Double(parts[1]) else { return nil }
    return (String(parts[0]), v)
}, uniquingKeysWith: { $1 })
if let late = measures["late-frames"], let frames = measures["frames"], let stall = measures["longest-stall-ms"], let chunks = measures["chunks"] {
    let took = measures["stream-seconds"] ?? 0
    add("streaming: frames over 16 ms of work", String(format: "%.0f of %.0f frames", late, frames),
        String(format: "%.0f of %d chunks shown, done after %.1f s", chunks, 2000 * streamSeconds, took), "", "none", late == 0)
    add("streaming: longest main-loop stall", String(format: "%.1f ms", stall), "", "", "≤ 16 ms", stall <= 16)
    if let update = measures["update-ms-total"], let layout = measures["layout-ms-total"], let paint = measures["paint-ms-total"] {
        add("streaming: where frame time went", String(format: "update %.0f ms, layout %.0f ms, paint %.0f ms", update, layout, paint), "", "", "", nil)
    }
} else {
    add("streaming", "did not complete", "", "", "", false)
    print(scenario)
}

print("")
print("| measure | BuilderOS | reference | ratio | target | |")
print("| --- | --- | --- | --- | --- | --- |")
for r in rows { print("| \(r.what) | \(r.ours) | \(r.reference) | \(r.ratio) | \(r.target) | \(r.verdict) |") }
