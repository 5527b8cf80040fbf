import Foundation
import ProcessHarness
import Testing

/// The fast subset of the decoder fuzzing (meson-helpers/fuzz-decoders runs 1,000,000 inputs).
/// A decoder that traps on some input kills the fuzzer process, which this test sees.
struct FuzzSubsetTests {
    @Test(arguments: [UInt64(20_261_121), 7])
    func decodersSurviveMutatedInput(seed: UInt64) async throws {
        let result = try await CLISandbox().run(["24000", String(seed)], executable: "builderos-fuzz")
        #expect(result.status == 0, "seed \(seed): \(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("24000 inputs in"))
        #expect(result.stdout.contains("8 passed, 0 failed"))
    }
}
