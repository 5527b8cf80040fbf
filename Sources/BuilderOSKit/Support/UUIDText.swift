import Foundation

/// UUIDs read back from their canonical text (`8-4-4-4-12` hex digits), as the message list keeps
/// them in its GTK model. Foundation's `UUID(uuidString:)` parses with `sscanf`: with every row bound
/// while scrolling, that showed in the message list's splicing. This reads the
/// 36 bytes directly.
public enum UUIDText {
    /// The UUID in `text` (a NUL-terminated C string), or nil unless it is exactly a canonical UUID.
    public static func parse(_ text: UnsafePointer<CChar>) -> UUID? {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == 0x2D else { return false }  // "-"
                    position += 1
                }
                guard let high = nibble(text[position]), let low = nibble(text[position + 1]) else { return false }
                out[index] = high << 4 | low
                position += 2
            }
            return text[position] == 0
        }
        return ok ? UUID(uuid: bytes) : nil
    }

    /// The UUID in `text`, or nil unless it is exactly a canonical UUID.
    public static func parse(_ text: String) -> UUID? { text.withCString { parse($0) } }

    /// A hex digit's value; nil for anything else (the NUL ending a short string included, so the
    /// reading stops there).
    private static func nibble(_ c: CChar) -> UInt8? {
        switch UInt8(bitPattern: c) {
        case 0x30...0x39: UInt8(bitPattern: c) - 0x30
        case 0x41...0x46: UInt8(bitPattern: c) - 0x41 + 10
        case 0x61...0x66: UInt8(bitPattern: c) - 0x61 + 10
        default: nil
        }
    }
}
