import Foundation

/// Wake-on-LAN: a magic packet (6 × 0xFF, then the MAC 16 times) sent as a UDP broadcast to
/// port 9 from this computer, which must be on the server machine's network.
public struct WakeOnLAN: Sendable, Equatable {
    public let mac: [UInt8]
    public let broadcast: String
    public let port: UInt16

    public static let defaultBroadcast = "255.255.255.255"

    /// Validates the preference values; nil broadcast means the local broadcast address. The
    /// broadcast may carry a port (`192.168.1.255:7`) for routers that forward another one.
    public init(mac text: String, broadcast: String? = nil) throws(WakeOnLANProblem) {
        guard let mac = Self.parseMAC(text) else { throw .invalidMAC }
        var address = broadcast?.trimmingCharacters(in: .whitespaces) ?? ""
        var port: UInt16 = 9
        if let colon = address.firstIndex(of: ":") {
            guard let p = UInt16(address[address.index(after: colon)...]), p > 0 else { throw .invalidBroadcast }
            port = p
            address = String(address[..<colon])
        }
        if !address.isEmpty, !Self.isIPv4(address) { throw .invalidBroadcast }
        self.mac = mac
        self.broadcast = address.isEmpty ? Self.defaultBroadcast : address
        self.port = port
    }

    /// Accepts `aa:bb:cc:dd:ee:ff`, `aa-bb-…` and `aabb.ccdd.eeff`, any case.
    public static func parseMAC(_ text: String) -> [UInt8]? {
        let hex = text.trimmingCharacters(in: .whitespaces).filter { !":-.".contains($0) }
        guard hex.count == 12, hex.allSatisfy(\.isHexDigit) else { return nil }
        let separators = text.filter { ":-.".contains($0) }.count
        guard separators == 0 || separators == 5 || (separators == 2 && text.contains(".")) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        for _ in 0..<6 {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    public static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { p in
                !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isNumber) && (Int(p) ?? 256) <= 255
            }
    }

    public var packet: [UInt8] {
        [UInt8](repeating: 0xFF, count: 6) + Array([[UInt8]](repeating: mac, count: 16).joined())
    }

    /// Sends the packet (three times, as wake tools do, since UDP may drop one).
    public func send() throws(WakeOnLANProblem) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw .sendFailed }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, broadcast, &address.sin_addr) == 1 else { throw .invalidBroadcast }
        let bytes = packet
        for _ in 0..<3 {
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard sent == bytes.count else { throw .sendFailed }
        }
    }
}

public enum WakeOnLANProblem: Error, Sendable, Equatable {
    case invalidMAC, invalidBroadcast, sendFailed

    public var message: String {
        switch self {
        case .invalidMAC: return L("Enter the MAC address as six pairs of hexadecimal digits, like 3c:22:fb:12:34:56.")
        case .invalidBroadcast: return L("Enter the broadcast address as four numbers, like 192.168.1.255, or leave it empty.")
        case .sendFailed:
            return L("The wake-up packet could not be sent from this computer. Check that it is connected to the server machine's network.")
        }
    }
}
