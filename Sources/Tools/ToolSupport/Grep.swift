import Foundation

public enum Grep {
    /// Files under `roots` whose bytes contain `needle`.
    public static func files(containing needle: String, under roots: [String]) -> [String] {
        var hits: [String] = []
        let bytes = Data(needle.utf8)
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker {
                let path = (root as NSString).appendingPathComponent(relative)
                guard let data = FileManager.default.contents(atPath: path), data.count < 64 << 20 else { continue }
                if data.range(of: bytes) != nil { hits.append(path) }
            }
        }
        return hits
    }
}
