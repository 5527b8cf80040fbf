import Foundation

/// The server's key file: read if present, otherwise created with a random key and mode 0600.
enum KeyFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func loadOrCreate(at path: String) throws -> String {
        if let data = FileManager.default.contents(atPath: path) {
            let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !key.isEmpty else { throw Failure(description: "The key file \(path) is empty.") }
            return key
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var bytes = [UInt8](repeating: 0, count: 24)
        for i in bytes.indices { bytes[i] = UInt8.random(in: .min ... .max) }
        let key = "bos_" + bytes.map { String(format: "%02x", $0) }.joined()
        // Create with 0600 from the start so the key is never readable by others, even briefly.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw Failure(description: "Cannot create the key file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let line = key + "\n"
        _ = line.withCString { write(fd, $0, strlen($0)) }
        return key
    }

    /// A folder of this run's own for uploads, made (0700) at the first upload: a run that receives
    /// none — most test runs — leaves nothing behind in the temporary folder.
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("builderos-uploads-\(UUID().uuidString)")
    }
}
