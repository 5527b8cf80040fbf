/// Network settings shared by the REST and chat clients. Defaults improve on the iOS client's floor.
public struct ClientConfiguration: Sendable {
    public var connectTimeout: Double = 10
    public var requestTimeout: Double = 30
    public var uploadTimeout: Double = 300
    /// Replies larger than this are refused (a misconfigured URL can point at a huge download).
    public var maxResponseBytes: Int = 8 << 20
    /// A PEM file of extra certificate authorities, in addition to the system's.
    public var extraCAFile: String?
    public var retry: RetryPolicy = .standard

    public init(extraCAFile: String? = nil) { self.extraCAFile = extraCAFile }
}

/// The 50,000,000-byte upload limit of the wire contract, checked before anything is sent.
public enum UploadLimit {
    public static let maximumBytes: Int64 = 50_000_000
    public static let kinds = ["photo", "video", "document", "code", "pdf", "archive", "audio", "other"]
}
