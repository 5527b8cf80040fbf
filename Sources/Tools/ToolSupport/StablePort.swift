import Foundation

/// A free loopback port below the kernel's ephemeral range (32768 and up on Linux), for servers
/// that are stopped and started again on the same port: a port picked with "port 0" can be handed
/// to someone else's "port 0" in between; one from here cannot.
public enum StablePort {
    public static func pick() -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<30_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 { return port }
        }
        return 0
    }
}
