import Testing
import ToolSupport

/// The benchmark's intervals: a start-up ratio's (`Stats.medianRatioInterval`) and paired starts' (`Stats.medianInterval`).
@Suite struct BenchmarkStatsTests {
    @Test func roundsThatAllAgreeGiveTheRatioItself() {
        let reference = [100.0, 110, 120, 130, 140]
        let interval = Stats.medianRatioInterval(reference.map { $0 * 1.3 }, reference)
        #expect(abs(interval.lowerBound - 1.3) < 1e-9 && abs(interval.upperBound - 1.3) < 1e-9)
    }

    @Test func theIntervalHoldsTheRatioOfTheMediansAndWidensWithTheSpread() {
        let reference = (0..<20).map { 110 + Double($0 % 7) }
        let steady = reference.enumerated().map { 1.28 * $1 + Double($0 % 3) }
        let noisy = reference.enumerated().map { 1.28 * $1 + Double(($0 * 37) % 60) - 30 }
        let point = Stats.median(steady) / Stats.median(reference)
        let narrow = Stats.medianRatioInterval(steady, reference)
        let wide = Stats.medianRatioInterval(noisy, reference)
        #expect(narrow.contains(point))
        #expect(wide.contains(Stats.median(noisy) / Stats.median(reference)))
        #expect(wide.upperBound - wide.lowerBound > 3 * (narrow.upperBound - narrow.lowerBound))
        #expect(wide.lowerBound < 1.25 && narrow.lowerBound > 1.25)
    }

    @Test func theSameFiguresGiveTheSameInterval() {
        let ours = [150.0, 171, 139, 162, 158, 149, 201, 144]
        let reference = [118.0, 131, 109, 125, 121, 116, 140, 112]
        #expect(Stats.medianRatioInterval(ours, reference) == Stats.medianRatioInterval(ours, reference))
    }

    @Test func aChangeWithinTheRoundsSpreadHasZeroInItsInterval() {
        let spread = (0..<30).map { Double(($0 * 17) % 21) - 10 }
        #expect(Stats.medianInterval(spread).contains(0))
        #expect(!Stats.medianInterval(spread.map { $0 - 12 }).contains(0))
        #expect(Stats.medianInterval(spread.map { $0 - 12 }).contains(Stats.median(spread) - 12))
    }
}
