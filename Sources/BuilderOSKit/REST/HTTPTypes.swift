import Foundation

/// A request handed to the curl engine. Bodies are either bytes or a multipart file upload.
struct HTTPRequest: Sendable {
    enum Method: String, Sendable { case get = "GET", post = "POST", delete = "DELETE", put = "PUT" }
    enum Body: Sendable {
        case none
        case bytes(Data, contentType: String)
        case multipartFile(path: String, filename: String, mimeType: String, fields: [(String, String)])
    }

    var method: Method
    var url: String
    var headers: [(String, String)]
    var body: Body = .none
    var connectTimeout: Double
    var totalTimeout: Double
    var maxResponseBytes: Int
    /// Past `maxResponseBytes`, stop reading and keep what arrived (a probe wants the start of a page)
    /// instead of failing with `responseTooLarge`.
    var keepsTruncatedBody = false
    var extraCAFile: String?
    /// Called on the curl thread with (sent, total) bytes while uploading.
    var uploadProgress: (@Sendable (Int64, Int64) -> Void)?
}

struct HTTPResponse: Sendable {
    var status: Int
    var contentType: String?
    var body: Data
    /// Seconds from start to the end of the transfer, as curl measured it.
    var totalTime: Double
    /// New connections this transfer opened (0 when it reused a kept-alive one).
    var connectionsOpened: Int = 0
    /// Where a 3xx answer pointed, made absolute (never followed).
    var location: String? = nil
}
