import CShims
import Foundation
import Glibc
import Testing

@testable import BuilderOSKit

/// The CLI loads libcurl ahead of its first request on a thread of its own, at nice 10 and asking
/// for the longest time slice (`CurlEngine.loadInBackground`), so that the keyring lookup's short
/// wake-ups preempt the load instead of queueing behind it. Threads inherit their creator's nice value, so the rule that
/// keeps requests at full priority: the loading thread creates no thread; the engine's thread,
/// which runs every transfer, is made by the first request.
struct CurlLoadingTests {
    @Test func theLoadingThreadEndsAtLowPriorityAndItsCallerDoesNot() async throws {
        let before = niceOfThisThread()
        let sliceBefore = sliceOfThisThread()
        let (loaded, nice, slice) = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: (bos_curl_load_at_low_priority(), niceOfThisThread(), sliceOfThisThread()))
            }
        }
        #expect(loaded == 1)
        #expect(nice == 10)
        #expect(niceOfThisThread() == before)
        // Kernels with EEVDF (6.6+) report each thread's slice; 6.12+ honour a requested one.
        if let slice, let sliceBefore, sliceBefore < 100_000_000 {
            #expect(slice == 100_000_000, "the loading thread's slice is \(slice) ns")
            #expect(sliceOfThisThread() == sliceBefore)
        }
    }

    @Test func transfersRunOnAThreadAtTheProcessPriorityAfterABackgroundLoad() async throws {
        let server = try await RunningServer.start()
        CurlEngine.loadInBackground()
        _ = try await server.client().status()
        let engineThreads = threadsOfThisProcess().filter { $0.name == "builderos-curl" }
        #expect(!engineThreads.isEmpty, "\(threadsOfThisProcess())")
        #expect(engineThreads.allSatisfy { $0.nice == 0 }, "\(engineThreads)")
        await server.stop()
    }

    private func niceOfThisThread() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)  // who 0: the calling thread on Linux
    }

    /// The calling thread's time slice in ns, where the kernel reports one (`se.slice`, EEVDF).
    private func sliceOfThisThread() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/sched", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("se.slice") }
        return line.flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Name and nice value of every thread, from /proc/self/task/<tid>/stat.
    private func threadsOfThisProcess() -> [(name: String, nice: Int)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { tid in
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the name: state, then fields 4…; the nice value is field 19 (proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
            return (String(stat[stat.index(after: open)..<close]), nice)
        }
    }
}
