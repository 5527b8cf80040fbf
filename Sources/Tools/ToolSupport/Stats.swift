/// Medians and percentiles for the benchmark and fault reports.
public enum Stats {
    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
    }

    /// The range that holds `median(ours) / median(reference)` in `confidence` of the resamples of
    /// the rounds (a bootstrap: rounds drawn with replacement, each round's two starts kept together,
    /// as they shared the machine's state). It says whether a ratio that met or missed its target
    /// would most likely do so again, or sits within a run's spread of it.
    public static func medianRatioInterval(_ ours: [Double], _ reference: [Double], confidence: Double = 0.9) -> ClosedRange<Double> {
        let pairs = Array(zip(ours, reference))
        return bootstrap(count: pairs.count, confidence: confidence) { drawn in
            median(drawn.map { pairs[$0].0 }) / median(drawn.map { pairs[$0].1 })
        }
    }

    /// The range that holds the median of `values` (one per round, as paired starts' differences) in
    /// `confidence` of the resamples of the rounds: a change whose range holds zero is within the
    /// rounds' spread.
    public static func medianInterval(_ values: [Double], confidence: Double = 0.9) -> ClosedRange<Double> {
        bootstrap(count: values.count, confidence: confidence) { drawn in median(drawn.map { values[$0] }) }
    }

    /// `statistic` over 2,000 draws of `count` rounds with replacement, and the middle `confidence` of
    /// its values. The draws come from a fixed seed: the same figures give the same range.
    private static func bootstrap(count: Int, confidence: Double, _ statistic: ([Int]) -> Double) -> ClosedRange<Double> {
        guard count > 0 else { return 0...0 }
        var generator = SplitMix64(seed: 0x5EED)
        let values = (0..<2_000).map { _ in statistic((0..<count).map { _ in Int.random(in: 0..<count, using: &generator) }) }
        let tail = (1 - confidence) / 2 * 100
        return percentile(values, tail)...percentile(values, 100 - tail)
    }
}
