import Foundation

/// A free loopback port below the kernel's ephemeral range (32768 and up on Linux), for servers
/// that are stopped and started again on the same port: a port picked with "port 0" can be handed
/// to someone else's "port 0" in between; one from here cannot.
public enum StablePort {
    public static func pick() -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<30_000)
            if let (fd, _) = Loopback.bind(port: port) {
                close(fd)
                return port
            }
        }
        return 0
    }
}
