import BuilderOSKit
import Foundation
import ReferenceServer
import ToolSupport

// builderos-bench --bin DIR [--tools DIR] [--runs N] [--only startup|status|stream|scroll|search|switch|paired|link-order|start-fonts-seed] [--work DIR]
//                 [--against DIR]       (with --only paired: the other build's installed executables)
//                 [--scroll-seconds S]  (the time box of each scrolling direction; 180 by default)
//                 [--wheel-seconds S]   (the same at a tenth of a page a frame; 30 by default)
// Run by meson-helpers/benchmark (under xvfb-run and a private keyring). Prints one table of
// medians and ratios, every reference measured in the same run. Not part of the tests.
var options: [String: String] = [:]
var iterator = CommandLine.arguments.dropFirst().makeIterator()
while let name = iterator.next(), let value = iterator.next() { options[String(name.dropFirst(2))] = value }
let bin = options["bin"] ?? ".build/debug"
let runs = Int(options["runs"] ?? "") ?? 10
let only = options["only"]
// --bin: the installed product executables; --tools: desktop-ui-checks (default: the same folder).
let tools = options["tools"] ?? bin
func binary(_ name: String) -> String { ((name == "desktop-ui-checks" ? tools : bin) as NSString).appendingPathComponent(name) }

// A module GIO loads at every start would be measured as the app's (GIOModuleCache says why it happens).
let moduleDirectory = GIOModuleCache.directory(environment: ProcessInfo.processInfo.environment)
let loadedAtEveryStart = GIOModuleCache.modulesLoadedAtEveryStart(in: moduleDirectory)
guard loadedAtEveryStart.isEmpty else {
    print(
        "Not measured: GIO's module cache in \(moduleDirectory) does not cover \(loadedAtEveryStart.joined(separator: ", ")), so GIO "
            + "would load \(loadedAtEveryStart.count == 1 ? "it" : "them") at every start of the app and the CLI, which a user's system does not. Refresh the cache (as root): "
            + GIOModuleCache.refreshCommand(for: moduleDirectory, environment: ProcessInfo.processInfo.environment))
    exit(1)
}

// --work DIR keeps the sandboxes (settings, history, the server's key file) there for profiling
// one scenario by hand; by default they go to a temporary folder that is removed at the end.
let kept = options["work"].map { URL(fileURLWithPath: $0) }
let work = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("builderos-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { if kept == nil { try? FileManager.default.removeItem(at: work) } }
let keyFile = work.appendingPathComponent("api-key").path
// Under Xvfb GTK's GL renderer would draw on the CPU through GLX: cairo, as in the tests. On
// Wayland (meson-helpers/with-wayland) GTK picks its renderer, as it does on a user's desktop.
// Mesa's shader cache is the user's, shared by every GL program (on a desktop the shell and other
// GTK apps have filled it): one folder for every process here, filled by an unmeasured start of each.
let onWayland = ProcessInfo.processInfo.environment["GDK_BACKEND"] == "wayland"
let shaderCache = work.appendingPathComponent("mesa-shader-cache").path
let base = ProcessInfo.processInfo.environment.merging(
    onWayland ? ["LANGUAGE": "C", "MESA_SHADER_CACHE_DIR": shaderCache] : ["GSK_RENDERER": "cairo", "LANGUAGE": "C"]
) { $1 }
print("Display: \(onWayland ? "Wayland (headless mutter)" : "X11 (Xvfb)")")

/// A private configuration (settings + history) signed in to `server`, with `messages` in one conversation.
@MainActor
func sandbox(_ name: String, server: ServerChild, messages: Int) throws -> [String: String] {
    let root = work.appendingPathComponent(name)
    var env = base
    env["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
    env["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
    env["XDG_CACHE_HOME"] = root.appendingPathComponent("cache").path
    let login = Processes.run(binary("builderos"), ["login", "--server", server.url], environment: env, stdin: keyFile)
    guard login.status == 0 else { throw POSIXError(.EACCES) }
    if messages > 0 {
        let history = try HistoryStore(path: root.appendingPathComponent("data/builderos-desktop/history.sqlite3").path)
        let conversation = Conversation(agent: .jarvis, title: "Benchmark")
        history.insert(conversation)
        history.inTransaction {
            for i in 0..<messages {
                let message = BenchmarkDocument.conversationMessage(i)
                history.append(
                    ChatMessage(
                        conversation: conversation.id, role: message.fromUser ? .user : .assistant,
                        text: message.text, state: message.fromUser ? .sent : .complete))
            }
        }
    }
    return env
}

/// The `MEASURE name=value` lines a scenario printed.
func measures(in output: String) -> [String: Double] {
    Dictionary(
        output.split(separator: "\n").filter { $0.hasPrefix("MEASURE ") }.compactMap { line -> (String, Double)? in
            let parts = line.dropFirst(8).split(separator: "=")
            guard parts.count == 2, let v = Double(parts[1]) else { return nil }
            return (String(parts[0]), v)
        }, uniquingKeysWith: { $1 })
}

/// When a paced server sent its last reply's last chunk (CLOCK_MONOTONIC, ns), as it printed.
func lastChunkSent(_ server: ServerChild) -> Double? {
    let line = server.printedSinceStart().split(separator: "\n").last { $0.hasPrefix("paced reply: last chunk sent at ") }
    return line?.split(separator: " ").compactMap { Double($0) }.first
}

/// A ratio against its target's limit: two decimals, or three where two would round it onto the limit (a table
/// showing "1.25×" beside "≤ 1.25×" and MISSED reads as a mistake).
func ratioText(_ value: Double, limit: Double) -> String {
    String(format: (value * 100).rounded() / 100 == limit && value != limit ? "%.3f×" : "%.2f×", value)
}

struct Row { var what: String; var ours: String; var reference: String; var ratio: String; var target: String; var verdict: String }
var rows: [Row] = []
@MainActor func add(_ what: String, _ ours: String, _ reference: String, _ ratio: String, _ target: String, _ met: Bool?) {
    rows.append(
        Row(
            what: onWayland ? "\(what), Wayland" : what, ours: ours, reference: reference, ratio: ratio, target: target,
            verdict: met.map { $0 ? "met" : "MISSED" } ?? "—"))
    print("  \(what): \(ours) vs \(reference) \(ratio)")
}

let server = try ServerChild(binary: binary("builderos-server"), keyFile: keyFile)
defer { server.kill() }
let reference = try ReferenceWindow.build(in: work)
let exitNow = BenchmarkExitVariable.name

if only == nil || only == "startup" {
    let start1k = try sandbox("thousand", server: server, messages: 1_000)
    let idle = try sandbox("idle", server: server, messages: 0)
    let big = try sandbox("ten-thousand", server: server, messages: 10_000)
    print("Start-up to first frame (\(runs) runs each)…")
    let timer = FirstFrameTimer(work: work)
    var app: [Double] = [], app10k: [Double] = [], appEmpty: [Double] = [], c: [Double] = []
    // A user's later starts, not the first: one unmeasured start per conversation leaves what a
    // start keeps for the next (the first frame's fonts, `StartFonts`) in the sandbox's cache. The
    // signed-in profile with no conversation yet is measured as its first start, the one a new user makes.
    for environment in [start1k, big] {
        _ = Processes.run(binary("builderos-desktop"), [], environment: environment.merging([exitNow: "0"]) { $1 })
    }
    _ = Processes.run(reference, ["0"], environment: base)
    for run in 0..<runs {
        // Each round's four starts in a random order: a start leaves work behind it (the X server
        // freeing a client's resources), and in a fixed order the same row came after the same one.
        let fresh = try sandbox("first-start-\(run)", server: server, messages: 0)
        let starts: [() -> Void] = [
            { app.append(timer.time("app, 1,000 messages", binary("builderos-desktop"), [], start1k)) },
            { c.append(timer.time("C window", reference, ["0"], base)) },
            { app10k.append(timer.time("app, 10,000 messages", binary("builderos-desktop"), [], big)) },
            { appEmpty.append(timer.time("app, signed in, no conversation, first start", binary("builderos-desktop"), [], fresh)) },
        ]
        starts.shuffled().forEach { $0() }
    }
    timer.printAside()
    let (a, a10k, aEmpty, r) = (Stats.median(app), Stats.median(app10k), Stats.median(appEmpty), Stats.median(c))
    // Beside the ratio of the medians, the range of each run's ratio to the C window started next to
    // it (between two starts GTK's own start alone moves by tens of milliseconds), and the range the
    // ratio itself would likely take in another run of as many rounds.
    func cWindow(besides ours: [Double]) -> String {
        let ratios = zip(ours, c).map { $0 / $1 }.filter(\.isFinite)
        let likely = Stats.medianRatioInterval(ours, c)
        return String(
            format: "%.0f ms (C GTK window; runs %.2f–%.2f×; 90 %% interval %.2f–%.2f×)", r * 1000, ratios.min() ?? .nan,
            ratios.max() ?? .nan, likely.lowerBound, likely.upperBound)
    }
    add(
        "start → first frame (signed in, no conversation, first start)", String(format: "%.0f ms", aEmpty * 1000), cWindow(besides: appEmpty),
        ratioText(aEmpty / r, limit: 1.25), "≤ 1.25×", aEmpty / r <= 1.25)
    add(
        "start → first frame (1,000-message conversation)", String(format: "%.0f ms", a * 1000), cWindow(besides: app),
        ratioText(a / r, limit: 1.25), "≤ 1.25×", a / r <= 1.25)
    add(
        "start → first frame (10,000-message conversation)", String(format: "%.0f ms", a10k * 1000), cWindow(besides: app10k),
        ratioText(a10k / r, limit: 1.25), "≤ 1.25×", a10k / r <= 1.25)

    // A machine busy with something else (a build: a busy loop per core, at the same priority as
    // the app): the first frame must not wait for work the app handed to a low-priority thread.
    print("Start-up with every core busy…")
    let loops = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in Processes.busyLoop() }
    var busy: [Double] = [], busyC: [Double] = []
    for _ in 0..<max(runs / 2, 5) {
        busy.append(timer.time("app, 1,000 messages, every core busy", binary("builderos-desktop"), [], start1k, quiet: false))
        busyC.append(timer.time("C window, every core busy", reference, ["0"], base, quiet: false))
    }
    loops.forEach { $0.terminate() }
    let (b, bC) = (Stats.median(busy), Stats.median(busyC))
    add(
        "start → first frame (1,000-message conversation), a busy loop on every core", String(format: "%.0f ms", b * 1000),
        String(format: "%.0f ms (C GTK window, the same loops)", bC * 1000), String(format: "%.2f×", b / bC), "(recorded)", nil)

    print("Peak memory…")
    let cPeak = Stats.median((0..<3).map { _ in Double(Processes.run(reference, ["2"], environment: base).peakKiB) })
    let idlePeak = Stats.median(
        (0..<3).map { _ in Double(Processes.run(binary("builderos-desktop"), [], environment: idle.merging([exitNow: "2"]) { $1 }).peakKiB) })
    let bigPeak = Stats.median(
        (0..<3).map { _ in Double(Processes.run(binary("builderos-desktop"), [], environment: big.merging([exitNow: "3"]) { $1 }).peakKiB) })
    add(
        "peak RSS, idle", String(format: "%.1f MiB", idlePeak / 1024), String(format: "%.1f MiB (C GTK window)", cPeak / 1024),
        String(format: "+%.1f MiB", (idlePeak - cPeak) / 1024), "≤ +25 MiB", (idlePeak - cPeak) / 1024 <= 25)
    add(
        "peak RSS, 10,000-message conversation open", String(format: "%.1f MiB", bigPeak / 1024),
        String(format: "%.1f MiB (C GTK window)", cPeak / 1024),
        String(format: "+%.1f MiB", (bigPeak - cPeak) / 1024), "≤ +60 MiB", (bigPeak - cPeak) / 1024 <= 60)
}

// Paired starts (`--only paired --against DIR`, run by meson-helpers/benchmark-against): this build's start-up
// against another build's (DIR: its installed executables), the two alternating in a random order with the C
// window each round, each build with a profile of its own. What judges one change: two full runs' medians move by
// more than most changes do (performance.md, "What is left"), the starts of one round far less.
if only == "paired" {
    guard let against = options["against"] else {
        print("--only paired needs --against DIR, the folder of the other build's installed executables")
        exit(2)
    }
    let other = (against as NSString).appendingPathComponent("builderos-desktop")
    let timer = FirstFrameTimer(work: work)
    print("Paired starts against \(against) (\(runs) rounds each)…")
    // As in the start-up rows: the conversations' starts are later ones (the first, unmeasured, keeps the first
    // frame's fonts for the next); the profile with no conversation is a new one each round, its first start.
    for (what, messages) in [
        ("signed in, no conversation, first start", 0), ("1,000-message conversation", 1_000), ("10,000-message conversation", 10_000),
    ] {
        let firstStart = messages == 0
        var mine = try sandbox("paired-this-\(messages)", server: server, messages: messages)
        var theirs = try sandbox("paired-other-\(messages)", server: server, messages: messages)
        if !firstStart {
            _ = Processes.run(binary("builderos-desktop"), [], environment: mine.merging([exitNow: "0"]) { $1 })
            _ = Processes.run(other, [], environment: theirs.merging([exitNow: "0"]) { $1 })
        }
        var this: [Double] = [], that: [Double] = [], c: [Double] = []
        for run in 0..<runs {
            if firstStart, run > 0 {
                mine = try sandbox("paired-this-first-start-\(run)", server: server, messages: 0)
                theirs = try sandbox("paired-other-first-start-\(run)", server: server, messages: 0)
            }
            let starts: [() -> Void] = [
                { this.append(timer.time("this build, \(what)", binary("builderos-desktop"), [], mine)) },
                { that.append(timer.time("the other build, \(what)", other, [], theirs)) },
                { c.append(timer.time("C window", reference, ["0"], base)) },
            ]
            starts.shuffled().forEach { $0() }
        }
        let differences = zip(this, that).map { ($0 - $1) * 1000 }.filter(\.isFinite)
        let thisBuildSooner = differences.filter { $0 < 0 }.count
        let likely = Stats.medianInterval(differences)
        add(
            "start → first frame (\(what)), this build against the other", String(format: "%.1f ms", Stats.median(this) * 1000),
            String(format: "%.1f ms (the other build; C window %.1f ms)", Stats.median(that) * 1000, Stats.median(c) * 1000),
            String(
                format: "%+.1f ms (rounds' median, 90 %% interval %+.1f to %+.1f; sooner in %d of %d)", Stats.median(differences),
                likely.lowerBound, likely.upperBound, thisBuildSooner, differences.count),
            "(a change's cost)", nil)
    }
    timer.printAside()
}

if only == nil || only == "status" {
    let idle = try sandbox("status", server: server, messages: 0)
    print("builderos status vs curl…")
    var status: [Double] = [], curl: [Double] = []
    // The references the issue names: the shell a user would write instead (the key from the
    // keyring through secret-tool, into curl's header), and bare curl plus the keyring lookup's own
    // time. (Only here, with the benchmark's throw-away key, does a key pass through an argv.)
    let baseURL = try ServerAddress.parse(server.url).baseURL
    let lookup = ["lookup", "server", baseURL, "version", CredentialStore.schemaVersion]
    let shell = "curl -s -H \"X-API-Key: $(secret-tool \(lookup.joined(separator: " ")))\" \(server.url)/api/status"
    var keyring: [Double] = [], userShell: [Double] = []
    if Processes.run("/usr/bin/secret-tool", lookup, environment: base).status != 0 {
        print("  secret-tool found no key for \(baseURL): the keyring references below are not valid")
    }
    for _ in 0..<max(runs * 2, 20) {
        status.append(Processes.run(binary("builderos"), ["status"], environment: idle).seconds)
        curl.append(Processes.run("/usr/bin/curl", ["-s", server.url + "/api/status"], environment: base).seconds)
        keyring.append(Processes.run("/usr/bin/secret-tool", lookup, environment: base).seconds)
        userShell.append(Processes.run("/bin/sh", ["-c", shell], environment: base).seconds)
    }
    let (s, k, l, u) = (Stats.median(status), Stats.median(curl), Stats.median(keyring), Stats.median(userShell))
    // The spread as well as the median: a run of `builderos status` varies far more than the
    // references do (it hands work between more threads), so a median alone hides how often it wins.
    func spread(_ v: [Double]) -> String {
        String(format: "p10 %.1f / p50 %.1f / p90 %.1f ms", Stats.percentile(v, 10) * 1000, Stats.median(v) * 1000, Stats.percentile(v, 90) * 1000)
    }
    print("  builderos status \(spread(status)); the shell \(spread(userShell)); curl -s \(spread(curl)); secret-tool \(spread(keyring))")
    print(String(format: "  builderos status at or under the shell's median in %d of %d runs", status.filter { $0 <= u }.count, status.count))
    add(
        "`builderos status`, whole process", String(format: "%.1f ms", s * 1000), String(format: "%.1f ms (curl -s)", k * 1000),
        String(format: "%.2f×", s / k), "—", nil)
    add(
        "`builderos status` vs the shell a user would write", String(format: "%.1f ms", s * 1000),
        String(format: "%.1f ms (curl with $(secret-tool lookup …))", u * 1000), ratioText(s / u, limit: 1.0), "≤ 1.0×", s / u <= 1.0)
    add(
        "`builderos status` vs curl -s plus the keyring lookup", String(format: "%.1f ms", s * 1000),
        String(format: "%.1f ms (%.1f + %.1f ms secret-tool)", (k + l) * 1000, k * 1000, l * 1000), ratioText(s / (k + l), limit: 1.5),
        "≤ 1.5×", s / (k + l) <= 1.5)
}

if only == nil {
    print("Chat round trip…")
    let trips = await RoundTrip.measure(
        server: try ServerAddress.parse(server.url),
        key: try String(contentsOfFile: keyFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), turns: 200)
    add(
        "chat round trip, send → first chunk (200 turns)", String(format: "p50 %.2f ms", Stats.percentile(trips, 50) * 1000),
        String(format: "p99 %.2f ms", Stats.percentile(trips, 99) * 1000), "", "(recorded)", nil)
}

for (bytes, rate) in only == nil || only == "stream" ? [(100_000, 2_000), (30_000, 200)] : [] {
    let label = "\(bytes / 1000) KB Markdown at \(rate.formatted()) chunks/s"
    let expected = Double(BenchmarkDocument.chunks(bytes: bytes).count) / Double(rate)
    print("Streaming \(label) (\(String(format: "%.0f", expected)) s)…")
    let paced = try ServerChild(
        binary: binary("builderos-server"), keyFile: keyFile,
        extra: ["--paced-chunks-per-second", String(rate), "--paced-document-bytes", String(bytes)])
    defer { paced.kill() }
    let streamEnv = try sandbox("stream-\(bytes)", server: paced, messages: 0)
    let scenario = Processes.output(
        "/usr/bin/timeout",
        [
            "\(Int(expected) * 4 + 90)", binary("desktop-ui-checks"), "--scenario", "BenchStreamScenario.stream",
            "--server", paced.url, "--key-file", keyFile, "--out", work.path,
            "--expected-seconds", String(expected),
        ], environment: streamEnv)
    let m = measures(in: scenario)
    // Each late frame's phases, to see what a miss comes from.
    for line in scenario.split(separator: "\n") where line.hasPrefix("LATE-FRAME ") { print("  " + line.dropFirst(11)) }
    guard let late = m["late-frames"], let frames = m["frames"], let longest = m["longest-frame-ms"], let stall = m["longest-stall-ms"],
        let shown = m["end-shown-us"], let lastChunk = lastChunkSent(paced), let replyBytes = m["reply-bytes"]
    else {
        add("streaming \(label)", "did not complete", "", "", "", false)
        print(scenario)
        continue
    }
    add(
        "\(label): frames over 16 ms", String(format: "%.0f of %.0f (longest %.0f ms)", late, frames, longest),
        String(format: "%.0f of %d bytes shown", replyBytes, BenchmarkDocument.text(bytes: bytes).utf8.count), "", "0", late == 0)
    add("\(label): longest main-loop stall", String(format: "%.1f ms", stall), "", "", "≤ 16 ms", stall <= 16)
    // Frames begun after the last chunk up to the one that showed the end: 1 when the first frame
    // that could show it did.
    let began =
        scenario.split(separator: "\n").last { $0.hasPrefix("END-FRAMES-BEGAN-US ") }?.split(separator: " ").dropFirst().compactMap { Double($0) }
        ?? []
    let frame = began.filter { $0 * 1000 >= lastChunk }.count
    // None: the frames' times did not come through (the end is always shown in a frame after it).
    add(
        "\(label): end shown after the last chunk", String(format: "%.1f ms, frame %d after it", (shown * 1000 - lastChunk) / 1e6, frame),
        "(to the paint)", "", "≤ 1 frame", frame == 1)
    if let update = m["update-ms-total"], let layout = m["layout-ms-total"], let paint = m["paint-ms-total"] {
        add(
            "\(label): frame time (layout / paint per frame)", String(format: "%.2f / %.2f ms", layout / max(frames, 1), paint / max(frames, 1)),
            String(format: "update %.0f ms in all", update), "", "", nil)
    }
    // Whether a frame costs more as the reply grows: layout and paint per frame, quarter by quarter.
    let layouts = (1...4).compactMap { m["layout-q\($0)-ms"] }, paints = (1...4).compactMap { m["paint-q\($0)-ms"] }
    if layouts.count == 4, paints.count == 4 {
        add(
            "\(label): layout / paint per frame, quarter by quarter of the stream",
            zip(layouts, paints).map { String(format: "%.1f / %.1f", $0, $1) }.joined(separator: ", ") + " ms", "", "", "flat", nil)
    }
    if bytes == 100_000, let resize = m["resize-longest-frame-ms"], let resizeFrames = m["resize-frames"] {
        add(
            "window resize with the 100 KB reply on screen: longest frame", String(format: "%.1f ms", resize),
            String(format: "%.0f frames", resizeFrames), "", "≤ 33 ms", resize <= 33)
    }
}

if only == nil || only == "switch" {
    print("Switching between two servers with 10,000 messages each…")
    do {
        let studioKey = work.appendingPathComponent("studio-key").path
        let studio = try ServerChild(binary: binary("builderos-server"), keyFile: studioKey)
        defer { studio.kill() }
        // mini is set up first (its history is the first file), studio second, and active.
        let env = try sandbox("switch", server: server, messages: 0)
        let login = Processes.run(binary("builderos"), ["login", "--server", studio.url, "--name", "studio"], environment: env, stdin: studioKey)
        guard login.status == 0 else { throw POSIXError(.EACCES) }
        let data = URL(fileURLWithPath: env["XDG_DATA_HOME"]!).appendingPathComponent("builderos-desktop")
        let titles = ["Ten thousand on mini", "Ten thousand on studio"]
        for (file, title) in zip([HistoryStore.firstFileName, HistoryStore.fileName(for: try ServerAddress.parse(studio.url))], titles) {
            let history = try HistoryStore(path: data.appendingPathComponent(file).path)
            let conversation = Conversation(agent: .jarvis, title: title)
            history.insert(conversation)
            history.inTransaction {
                for i in 0..<10_000 {
                    let m = BenchmarkDocument.conversationMessage(i)
                    history.append(
                        ChatMessage(
                            conversation: conversation.id, role: m.fromUser ? .user : .assistant, text: m.text, state: m.fromUser ? .sent : .complete)
                    )
                }
            }
        }
        let scenario = Processes.output(
            "/usr/bin/timeout",
            [
                "300", binary("desktop-ui-checks"), "--scenario", "BenchSwitchScenario.switching", "--server", studio.url,
                "--key-file", studioKey, "--out", work.path, "--titles", titles.joined(separator: ","), "--switches", "\(2 + 2 * max(runs, 4))",
            ],
            environment: env)
        let m = measures(in: scenario)
        if let firstSwitch = m["switch-first-ms"], let median = m["switch-median-ms"], let worst = m["switch-worst-ms"],
            scenario.contains(" 0 failed")
        {
            add(
                "switch server, 10,000 messages each → painted (median / worst)", String(format: "%.0f / %.0f ms", median, worst), "", "",
                "≤ 100 ms", worst <= 100)
            add("switch to a server without a session yet (its history opened) → painted", String(format: "%.0f ms", firstSwitch), "", "", "", nil)
        } else {
            add("switch server → painted", "did not run", "", "", "≤ 100 ms", false)
            print(scenario)
        }
    } catch {
        add("switch server", "did not run", "", "", "≤ 100 ms", false)
    }
}

if only == nil || only == "search" {
    print("Search in 100,000 messages…")
    // 90 conversations of 1,000 messages and one of 10,000 with the needle at message 1,234.
    let searchEnv = try sandbox("search", server: server, messages: 0)
    let path = URL(fileURLWithPath: searchEnv["XDG_DATA_HOME"]!).appendingPathComponent("builderos-desktop/history.sqlite3").path
    let needle = "zanzibarneedle"
    do {
        let history = try HistoryStore(path: path)
        let long = Conversation(agent: .jarvis, title: "Ten thousand")
        history.insert(long)
        history.inTransaction {
            for i in 0..<10_000 {
                let m = BenchmarkDocument.conversationMessage(i)
                let text = i == 1_234 ? "Where did the \(needle) config go?" : m.text
                history.append(
                    ChatMessage(conversation: long.id, role: m.fromUser ? .user : .assistant, text: text, state: m.fromUser ? .sent : .complete))
            }
            for c in 0..<90 {
                let conversation = Conversation(agent: c % 2 == 0 ? .jarvis : .codex, title: "Conversation \(c)")
                history.insert(conversation)
                for i in 0..<1_000 {
                    let m = BenchmarkDocument.conversationMessage(c * 1_000 + i)
                    history.append(
                        ChatMessage(
                            conversation: conversation.id, role: m.fromUser ? .user : .assistant, text: m.text, state: m.fromUser ? .sent : .complete)
                    )
                }
            }
        }
        // The index's share of the file (the target: it adds at most 40 % to what the history takes without it).
        if let bytes = history.storageBytes() {
            let added = Double(bytes.searchIndex) / Double(bytes.total - bytes.searchIndex)
            add(
                "search index size, 100,000 messages", String(format: "%.1f MiB", Double(bytes.searchIndex) / 1_048_576),
                String(format: "%.1f MiB (the history without it)", Double(bytes.total - bytes.searchIndex) / 1_048_576),
                String(format: "+%.0f %%", added * 100), "≤ +40 %", added <= 0.40)
        } else {
            add("search index size, 100,000 messages", "not measured (SQLite without dbstat)", "", "", "≤ +40 %", nil)
        }
        // The query alone, on the store's connection: the reference for the window's keystroke-to-paint.
        var core: [Double] = []
        for query in ["de", "dep", "depl", "deploy", "retries less", "\"dropped connection\"", "conn -deploy"] {
            for _ in 0..<5 {
                let start = Date()
                _ = history.search(SearchQuery(query))
                core.append(Date().timeIntervalSince(start) * 1000)
            }
        }
        print(String(format: "  the query alone: median %.1f ms, worst %.1f ms", Stats.median(core), core.max() ?? 0))
        let scenario = Processes.output(
            "/usr/bin/timeout",
            [
                "300", binary("desktop-ui-checks"), "--scenario", "BenchSearchScenario.search", "--server", server.url,
                "--key-file", keyFile, "--out", work.path, "--needle", needle,
            ],
            environment: searchEnv)
        let m = measures(in: scenario)
        for line in scenario.split(separator: "\n") where line.hasPrefix("LATE-FRAME ") || line.hasPrefix("OPEN-FRAMES ") { print("  " + line) }
        if let median = m["search-keystroke-median-ms"], let worst = m["search-keystroke-worst-ms"], let late = m["search-typing-late-frames"],
            let frames = m["search-typing-frames"], let open = m["search-open-deep-ms"], scenario.contains(" 0 failed")
        {
            let query = Stats.median(core)
            add(
                "search, 100,000 messages: keystroke → results painted (median / worst)", String(format: "%.0f / %.0f ms", median, worst),
                String(format: "%.1f ms (the query alone, median)", query), String(format: "%.1f×", median / max(query, 0.1)),
                "≤ 30 ms / ≤ 100 ms", median <= 30 && worst <= 100)
            add("search: typing a key each 60 ms, frames over 16 ms", String(format: "%.0f of %.0f", late, frames), "", "", "0", late == 0)
            add(
                "search: open a hit 1,234 messages into 10,000 → painted", String(format: "%.0f ms", open), "", "", "≤ 150 ms", open <= 150)
        } else {
            add("search: keystroke → results painted", "did not run", "", "", "≤ 30 ms median, ≤ 100 ms worst", false)
            print(scenario)
        }
    } catch {
        add("search in 100,000 messages", "did not run", "", "", "", false)
    }
}

if only == nil || only == "scroll" {
    print("Scrolling a 10,000-message conversation end to end…")
    let scrollEnv = try sandbox("scroll", server: server, messages: 10_000)
    let referenceList = try ReferenceList.build(in: work)
    // A page a frame (a fling, the scrollbar dragged) end to end; then a tenth of a page a frame (a
    // mouse wheel's pace) for a while each way, which never reaches the ends. A page a frame takes
    // about 7,300 frames each way, ~122 s at 60 frames a second: the time box is a safety net above
    // that, not a cut-off.
    for (step, seconds) in [("1", options["scroll-seconds"] ?? "180"), ("0.1", options["wheel-seconds"] ?? "30")] {
        let wheel = step != "1"
        let scenario = Processes.output(
            "/usr/bin/timeout",
            [
                "420", binary("desktop-ui-checks"), "--scenario", "BenchScrollScenario.scroll", "--server", server.url,
                "--key-file", keyFile, "--out", work.path, "--seconds", seconds, "--step", step,
            ],
            environment: scrollEnv)
        // Every late frame's phases, for profiling by hand (too many lines for the table's output).
        if kept != nil {
            try? scenario.write(to: work.appendingPathComponent(wheel ? "scroll-wheel.out" : "scroll.out"), atomically: true, encoding: .utf8)
        }
        let m = measures(in: scenario)
        for direction in ["up", "down"] {
            guard let late = m["scroll-\(direction)-late-frames"], let frames = m["scroll-\(direction)-frames"],
                let longest = m["scroll-\(direction)-longest-frame-ms"], let seconds = m["scroll-\(direction)-seconds"],
                let p99 = m["scroll-\(direction)-p99-frame-ms"],
                let reached = m["scroll-\(direction)-reached-end"], scenario.contains(" 0 failed")
            else {
                add("scrolling 10,000 messages \(direction)\(wheel ? " at a wheel's pace" : "")", "did not run", "", "", "0", false)
                print(scenario)
                continue
            }
            let end = direction == "up" ? "the first message" : "the newest"
            let pace = wheel ? "a tenth of a page a frame (a mouse wheel's pace)" : "a page a frame"
            let c = ReferenceList.run(referenceList, step: step, frames: Int(frames), up: direction == "up", environment: base)
            let cList =
                c.map {
                    String(
                        format: "; C GtkListView of one-line labels, as many frames: %d late (p99 %.0f ms, longest %.0f ms)", $0.late,
                        $0.p99Milliseconds, $0.longestMilliseconds)
                }
                ?? "; the C list did not run"
            add(
                "scrolling 10,000 messages \(direction == "up" ? "up" : "back down"), \(pace): frames over 16 ms",
                String(format: "%.0f of %.0f (p99 %.0f ms, longest %.0f ms)", late, frames, p99, longest),
                String(format: "%.1f s, ", seconds) + (wheel ? "time-boxed" : reached == 1 ? "reached \(end)" : "\(end) not reached") + cList,
                c.map { String(format: "p99 %.2f×", p99 / $0.p99Milliseconds) } ?? "",
                wheel ? "(recorded)" : "0", wheel ? nil : late == 0 && reached == 1)
        }
    }
}

// Not part of the table (meson-helpers/update-link-order): --profile-binaries names the unstripped
// release build, --link-order-out the folder of the ordering files.
if only == "link-order", let unstripped = options["profile-binaries"], let out = options["link-order-out"] {
    print("Functions run at start-up (callgrind)…")
    // The app signed in and idle first (what every start runs), then what a conversation adds.
    let exitSoon = [exitNow: "2"]
    var app: [Set<String>] = []
    for (name, messages) in [("idle", 0), ("thousand", 1_000)] {
        let env = try sandbox(name, server: server, messages: messages).merging(exitSoon) { $1 }
        app.append(
            try LinkOrder.functions(
                of: "builderos-desktop", unstripped: unstripped, installedBin: bin, arguments: [],
                environment: env, work: work))
    }
    try LinkOrder.write(app, product: "builderos-desktop", to: out)
    let cliEnv = try sandbox("cli", server: server, messages: 0)
    let cli = try [["status"], ["capsules"]].map { arguments in
        try LinkOrder.functions(of: "builderos", unstripped: unstripped, installedBin: bin, arguments: arguments, environment: cliEnv, work: work)
    }
    try LinkOrder.write(cli, product: "builderos", to: out)
}

// Not part of the table (meson-helpers/update-start-fonts-seed): --start-fonts-seed-out names the file
// to write, --start-fonts-seed-joining a seed made on another display, joined after this one's fonts.
if only == "start-fonts-seed", let out = options["start-fonts-seed-out"] {
    print("The first frame's fonts of a first start, in each language…")
    try StartFontsSeed.write(to: out, joining: options["start-fonts-seed-joining"]) { language in
        let environment = try sandbox("seed-\(language)", server: server, messages: 0).merging(
            ["LANG": "C.UTF-8", "LANGUAGE": language, exitNow: "0"]) { $1 }
        _ = Processes.run(binary("builderos-desktop"), [], environment: environment)
        return StartFonts.read(from: StartFonts.defaultPath(environment: environment))
    }
}

if !rows.isEmpty {
    print("")
    print("| measure | BuilderOS | reference | ratio | target | |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows { print("| \(r.what) | \(r.ours) | \(r.reference) | \(r.ratio) | \(r.target) | \(r.verdict) |") }
}
