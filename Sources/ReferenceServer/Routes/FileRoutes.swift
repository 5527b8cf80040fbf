import Foundation
import Hummingbird

/// Upload (multipart, 50,000,000-byte limit) and serving the stored files back.
enum FileRoutes {
    static let maximumFileSize = 50_000_000
    static let allowedTypes: Set<String> = ["photo", "video", "document", "code", "pdf", "archive", "audio", "other"]

    static func add<Context: RequestContext>(to router: Router<Context>, state: ServerState) {
        router.post("/api/files/upload") { request, _ in
            guard state.isValid(key: request.apiKeyHeader) else { return JSONResponse.error(.unauthorized, "Invalid API key") }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumFileSize + 65_536 {
                return JSONResponse.error(.contentTooLarge, "File too large (limit 50,000,000 bytes)")
            }
            let buffer: ByteBuffer
            do { buffer = try await request.body.collect(upTo: maximumFileSize + 65_536) } catch {
                return JSONResponse.error(.contentTooLarge, "File too large (limit 50,000,000 bytes)")
            }
            guard let boundary = request.headers[.contentType].flatMap(Multipart.boundary(fromContentType:)) else {
                return JSONResponse.error(.badRequest, "Expected multipart/form-data")
            }
            let parts = Multipart.parse(Data(buffer: buffer), boundary: boundary)
            guard let file = parts.first(where: { $0.name == "file" }), let original = file.filename else {
                return JSONResponse.error(.badRequest, "Missing file part")
            }
            let kind = parts.first(where: { $0.name == "type" }).map { String(decoding: $0.body, as: UTF8.self) } ?? "other"
            guard allowedTypes.contains(kind) else { return JSONResponse.error(.badRequest, "Unknown file type") }
            guard file.body.count <= maximumFileSize else {
                return JSONResponse.error(.contentTooLarge, "File too large (limit 50,000,000 bytes)")
            }
            let id = UUID().uuidString.lowercased()
            let safeName = sanitize(original)
            let folder = state.uploadDirectory.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try file.body.write(to: folder.appendingPathComponent(safeName))
            let path = "/api/files/\(id)/\(safeName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? safeName)"
            let url = state.faults.absoluteUploadURLs ? state.baseURL + path : path
            return JSONResponse.make(["url": url, "filename": safeName, "size": file.body.count, "type": kind])
        }
        router.get("/api/files/:id/:name") { request, context in
            guard state.isValid(key: request.apiKeyHeader) else { return JSONResponse.error(.unauthorized, "Invalid API key") }
            let id = context.parameters.get("id") ?? ""
            // Path parameters arrive percent-encoded ("report%20final.pdf").
            let name = (context.parameters.get("name") ?? "").removingPercentEncoding ?? ""
            guard UUID(uuidString: id) != nil, sanitize(name) == name,
                let data = FileManager.default.contents(atPath: state.uploadDirectory.appendingPathComponent(id).appendingPathComponent(name).path)
            else { return JSONResponse.error(.notFound, "File not found") }
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// Keeps only the last path component and drops characters that could escape the folder.
    static func sanitize(_ name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? "file"
        let cleaned = last.filter { $0 != "\\" && $0 != "\0" }
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "file" : cleaned
    }
}
