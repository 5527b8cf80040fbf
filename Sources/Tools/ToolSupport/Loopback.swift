import Foundation

/// IPv4 loopback sockets for tests and tools: a listener on a free port, a port nobody listens on,
/// a readiness probe. One place for the sockaddr plumbing.
public enum Loopback {
    public static func address(port: Int, host: String = "127.0.0.1") -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    /// Binds a new socket (TCP, or UDP when `datagram`) to `port` (0: any free one); returns the
    /// socket and the bound port, or nil when the port is taken.
    public static func bind(port: Int = 0, host: String = "127.0.0.1", datagram: Bool = false) -> (socket: Int32, port: Int)? {
        let fd = socket(AF_INET, Int32(datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var yes: Int32 = 1
        if !datagram { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        var address = address(port: port, host: host)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) } }
        guard bound == 0 else { close(fd); return nil }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A TCP listener on a free port.
    public static func listen(backlog: Int32 = 16, host: String = "127.0.0.1") -> (socket: Int32, port: Int)? {
        guard let (fd, port) = bind(host: host) else { return nil }
        guard Glibc.listen(fd, backlog) == 0 else { close(fd); return nil }
        return (fd, port)
    }

    /// A port nobody listens on, below the kernel's ephemeral range (32768 and up on Linux) so a
    /// server started on "port 0" meanwhile cannot be handed it: `StablePort`'s pick, left closed.
    public static func closedPort() -> Int { StablePort.pick() }

    /// True when something accepts connections on `port`.
    public static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
