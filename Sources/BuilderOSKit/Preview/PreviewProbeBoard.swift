/// The Preview page's knowledge of which ports answer: one result per port, all asked again on
/// `refresh`. A refresh started later wins; an earlier one's late answers are dropped.
@MainActor
public final class PreviewProbeBoard {
    public private(set) var results: [Int: ProbeResult] = [:]
    public private(set) var isProbing = false
    /// Called after every change of `results` or `isProbing`.
    public let changes = Observers<Void>()
    private let prober: any PortProbing
    private var generation = 0

    public init(prober: any PortProbing) { self.prober = prober }

    /// Asks every port of `host` at once; returns when all have answered (or a newer refresh began).
    public func refresh(host: String, ports: [Int]) async {
        generation += 1
        let mine = generation
        isProbing = true
        for port in ports { results[port] = .checking }
        changes.notify(())
        let answers = await prober.probeAll(host: host, ports: ports)
        guard mine == generation else { return }
        results.merge(answers) { $1 }
        isProbing = false
        changes.notify(())
    }

    /// Forgets every result (the host changed to one that cannot be probed).
    public func clear() {
        generation += 1
        results = [:]
        isProbing = false
        changes.notify(())
    }

    /// "2 of 5 answer", for the header.
    public func summary(of ports: [Int]) -> String {
        if isProbing { return L("Checking the dev servers…") }
        let up = ports.filter { results[$0]?.isUp == true }.count
        if results.isEmpty { return "" }
        return up == 0 ? L("No dev server answers") : L("%d of %d dev servers answer", String(up), String(ports.count))
    }
}
