/// Which kind of network a literal host is on. Names other than `localhost`, `*.local` (mDNS)
/// and `*.ts.net` (Tailscale) count as public: without a DNS lookup nothing more is known.
enum NetworkRange {
    enum Kind { case loopback, privateNetwork, publicNetwork }

    static func classify(host: String) -> Kind {
        let h = host.lowercased()
        if h == "localhost" || h.hasSuffix(".localhost") { return .loopback }
        if h.hasPrefix("[") {
            let inner = h.dropFirst().dropLast()
            if inner == "::1" { return .loopback }
            // fc00::/7 unique-local and fe80::/10 link-local.
            if inner.hasPrefix("fc") || inner.hasPrefix("fd") || inner.hasPrefix("fe8") || inner.hasPrefix("fe9")
                || inner.hasPrefix("fea") || inner.hasPrefix("feb")
            {
                return .privateNetwork
            }
            return .publicNetwork
        }
        if let octets = ipv4(h) {
            switch (octets[0], octets[1]) {
            case (127, _): return .loopback
            case (10, _): return .privateNetwork
            case (172, 16...31): return .privateNetwork
            case (192, 168): return .privateNetwork
            case (100, 64...127): return .privateNetwork  // 100.64/10, carrier-grade NAT and Tailscale
            case (169, 254): return .privateNetwork
            default: return .publicNetwork
            }
        }
        if h.hasSuffix(".local") || h.hasSuffix(".ts.net") || h.hasSuffix(".lan") || h.hasSuffix(".home.arpa") { return .privateNetwork }
        return .publicNetwork
    }

    static func ipv4(_ host: String) -> [Int]? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isNumber), let v = Int(part), v <= 255 else { return nil }
            octets.append(v)
        }
        return octets
    }
}
