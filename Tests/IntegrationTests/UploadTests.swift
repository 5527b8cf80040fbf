import Foundation
import ReferenceServer
import Synchronization
import Testing

@testable import BuilderOSKit

struct UploadTests {
    func temporaryFile(bytes: Int, name: String = "notes.txt") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-up-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        var data = Data(count: bytes)
        for i in 0..<bytes { data[i] = UInt8(truncatingIfNeeded: i &* 31) }
        try data.write(to: url)
        return url
    }

    @Test func uploadWithProgressIsServedBackIdentically() async throws {
        let server = try await RunningServer.start()
        let file = try temporaryFile(bytes: 300_000, name: "report final.pdf")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let progress = Mutex<[Int64]>([])
        let reply = try await server.client().upload(fileAt: file.path, kind: "pdf", mimeType: "application/pdf") { sent, _ in
            progress.withLock { $0.append(sent) }
        }
        #expect(reply.filename == "report final.pdf" && reply.size == 300_000)
        #expect(reply.url.hasPrefix("/api/files/"))
        let seen = progress.withLock { $0 }
        #expect(seen.last ?? 0 >= 300_000)
        #expect(seen == seen.sorted())

        let download = HTTPRequest(
            method: .get, url: reply.resolvedURL(base: server.address), headers: [("X-API-Key", server.key)],
            connectTimeout: 5, totalTimeout: 10, maxResponseBytes: 1 << 20)
        let body = try await #require(CurlEngine.shared).perform(download).body
        #expect(body == (try Data(contentsOf: file)))
        await server.stop()
    }

    @Test func absoluteUploadURLsAreKept() async throws {
        var faults = Faults()
        faults.absoluteUploadURLs = true
        let server = try await RunningServer.start(faults: faults)
        let file = try temporaryFile(bytes: 10)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let reply = try await server.client().upload(fileAt: file.path, kind: "document", mimeType: "text/plain")
        #expect(reply.url.hasPrefix(server.address.baseURL + "/api/files/"))
        #expect(reply.resolvedURL(base: server.address) == reply.url)
        await server.stop()
    }

    @Test func overTheLimitIsRefusedBeforeSending() async throws {
        let server = try await RunningServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bos-big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.bin")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 50_000_001)  // sparse: no disk used
        try handle.close()
        await #expect(throws: BuilderOSError.fileTooLarge(bytes: 50_000_001)) {
            try await server.client().upload(fileAt: big.path, kind: "archive", mimeType: "application/octet-stream")
        }
        #expect(server.state.requestCount(path: "/api/files/upload") == 0)
        await server.stop()
    }

    @Test func missingFileAndWrongKey() async throws {
        let server = try await RunningServer.start()
        await #expect(throws: BuilderOSError.fileUnreadable(path: "/nonexistent/file")) {
            try await server.client().upload(fileAt: "/nonexistent/file", kind: "other", mimeType: "text/plain")
        }
        let file = try temporaryFile(bytes: 5)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        await #expect(throws: BuilderOSError.unauthorized) {
            try await server.client(key: "wrong").upload(fileAt: file.path, kind: "other", mimeType: "text/plain")
        }
        await server.stop()
    }
}
