import ToolSupport

/// A seeded, reproducible input generator: takes valid samples and breaks them the ways real
/// bytes break — flips, cuts, splices, repeats, stray quotes and brackets, invalid UTF-8.
struct Mutator {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed) }

    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }

    static let interesting: [[UInt8]] = [
        Array("\"".utf8), Array("{".utf8), Array("}".utf8), Array("[".utf8), Array("]".utf8), Array(":".utf8),
        Array(",".utf8), Array("\\".utf8), Array("null".utf8), Array("1e999".utf8), Array("-0".utf8),
        Array("\\u0000".utf8), Array("\\ud800".utf8), [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        Array("<tts-summary>".utf8), Array("</tts-summary>".utf8), Array("Error:".utf8), Array("://".utf8),
        Array("[::1]".utf8), Array("@".utf8), Array("#".utf8), Array("%".utf8), Array(":99999999999999999999".utf8),
        Array(repeating: UInt8(ascii: "9"), count: 40), Array("é".utf8), Array("👩‍💻".utf8),
    ]

    /// One to four mutations of `sample`, sometimes spliced with `other`.
    mutating func mutate(_ sample: [UInt8], other: [UInt8]) -> [UInt8] {
        var bytes = sample
        for _ in 0...below(4) {
            switch below(8) {
            case 0 where !bytes.isEmpty: bytes[below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
            case 1 where !bytes.isEmpty: bytes.remove(at: below(bytes.count))
            case 2: bytes.insert(contentsOf: Self.interesting[below(Self.interesting.count)], at: below(bytes.count + 1))
            case 3 where !bytes.isEmpty: bytes = Array(bytes.prefix(below(bytes.count)))
            case 4 where !other.isEmpty: bytes = Array(bytes.prefix(below(bytes.count + 1))) + Array(other.suffix(below(other.count + 1)))
            case 5 where !bytes.isEmpty:
                let start = below(bytes.count), length = min(bytes.count - start, 1 + below(16))
                bytes.insert(contentsOf: bytes[start..<start + length], at: below(bytes.count + 1))
            case 6: bytes.insert(UInt8(truncatingIfNeeded: next()), at: below(bytes.count + 1))
            default: if !bytes.isEmpty { bytes[below(bytes.count)] = UInt8(truncatingIfNeeded: next()) }
            }
        }
        return bytes
    }
}
