import BuilderOSKit
import Foundation

// builderos-faults --bin DIR [--rounds N] [--only NAME] [--timing yes]
// The fault suite: the server killed and restarted mid-reply N times (lost and duplicated user
// messages, time to reconnect), a slow server (timeouts at their configured value), a tunnel's
// 502/530 page, a half-open connection, and the keyring daemon killed mid-session. Prints its
// counts and exits 1 when a target is missed. With `--timing yes` the slow server's timeouts must
// also fire within 10 % of their value (a measurement: the tests check only that they fire). `meson-helpers/fault-suite` runs it in full; a
// fast subset runs in the tests (Tests/CLITests/FaultSubsetTests).
var options: [String: String] = [:]
var iterator = CommandLine.arguments.dropFirst().makeIterator()
while let name = iterator.next(), let value = iterator.next() { options[String(name.dropFirst(2))] = value }
let bin = options["bin"] ?? ".build/debug"
let rounds = Int(options["rounds"] ?? "") ?? 100
let only = options["only"]
let checkTiming = options["timing"] == "yes"
let work = FileManager.default.temporaryDirectory.appendingPathComponent("builderos-faults-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

var failures = 0

let faults = Faults(bin: bin, work: work)
if only == nil || only == "kill-restart" { await faults.killAndRestart(rounds: rounds) }
if only == nil || only == "slow" { await faults.slowServer(checkTiming: checkTiming) }
if only == nil || only == "tunnel" { await faults.tunnelPages() }
if only == nil || only == "half-open" { await faults.halfOpen() }
if only == "keyring" { await faults.keyringKilled() }  // kills this session's keyring: only on request
try? FileManager.default.removeItem(at: work)  // `exit` skips the defer above
exit(failures == 0 ? 0 : 1)
