/// Fault switches that tests (and demos) flip to make the reference server misbehave the way
/// real servers and tunnels do. Every field defaults to "behave".
public struct Faults: Codable, Sendable, Equatable {
    /// Extra wait before every REST answer and before the first chunk of a reply.
    public var responseDelayMilliseconds: Int = 0
    /// Wait between two chunks of a streamed reply.
    public var chunkDelayMilliseconds: Int = 0
    /// Close the chat socket halfway through a reply.
    public var dropMidStream: Bool = false
    /// Close the chat socket right after receiving the next N user messages, before any chunk.
    public var dropBeforeReplyCount: Int = 0
    /// End a turn with an `error` frame instead of a reply.
    public var errorFrame: Bool = false
    /// Send the reply as an `Error:`-prefixed `message` followed by `complete`.
    public var errorMessage: Bool = false
    /// Reject every key: 401 on key routes, `error:invalid_api_key` on sockets.
    public var rejectAllKeys: Bool = false
    /// Behave like a core server without the system server: its routes answer 404.
    public var systemRoutesAbsent: Bool = false
    /// Answer status without `features`, as servers that do not list them do.
    public var statusWithoutFeatures: Bool = false
    /// Answer every HTTP request with a tunnel edge's HTML error page with this status (e.g. 502, 530).
    /// WebSocket upgrades then fail with Hummingbird's bare 400: it cannot send another status there.
    public var tunnelErrorStatus: Int? = nil
    /// Answer sleep in the older `{"success":bool,"message":str}` shape.
    public var legacySleepReply: Bool = false
    /// Return absolute upload URLs instead of relative ones.
    public var absoluteUploadURLs: Bool = false
    /// Send `ready` only after the first chat message instead of right after authentication.
    public var lateReady: Bool = false
    /// When above 0, the reply is one chunk of this many bytes (lines of text) instead of the usual.
    public var giantChunkBytes: Int = 0
    /// Frame type used for reply chunks: "message" (default) or "stream".
    public var chunkFrameType: String = "message"
    /// Benchmarks: when above 0, the reply is short words paced at this many chunks a second…
    public var pacedChunksPerSecond: Int = 0
    /// …for this many seconds.
    public var pacedSeconds: Int = 10
    /// …or, when above 0, a Markdown document of this many bytes (`BenchmarkDocument`) in token-sized
    /// chunks at that rate, for as long as it takes.
    public var pacedDocumentBytes: Int = 0

    public init() {}

    public init(from decoder: any Decoder) throws {
        // Missing keys keep their defaults so tests can send only what they change.
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Faults()
        responseDelayMilliseconds = try c.decodeIfPresent(Int.self, forKey: .responseDelayMilliseconds) ?? d.responseDelayMilliseconds
        chunkDelayMilliseconds = try c.decodeIfPresent(Int.self, forKey: .chunkDelayMilliseconds) ?? d.chunkDelayMilliseconds
        dropMidStream = try c.decodeIfPresent(Bool.self, forKey: .dropMidStream) ?? d.dropMidStream
        dropBeforeReplyCount = try c.decodeIfPresent(Int.self, forKey: .dropBeforeReplyCount) ?? d.dropBeforeReplyCount
        errorFrame = try c.decodeIfPresent(Bool.self, forKey: .errorFrame) ?? d.errorFrame
        errorMessage = try c.decodeIfPresent(Bool.self, forKey: .errorMessage) ?? d.errorMessage
        rejectAllKeys = try c.decodeIfPresent(Bool.self, forKey: .rejectAllKeys) ?? d.rejectAllKeys
        systemRoutesAbsent = try c.decodeIfPresent(Bool.self, forKey: .systemRoutesAbsent) ?? d.systemRoutesAbsent
        statusWithoutFeatures = try c.decodeIfPresent(Bool.self, forKey: .statusWithoutFeatures) ?? d.statusWithoutFeatures
        tunnelErrorStatus = try c.decodeIfPresent(Int.self, forKey: .tunnelErrorStatus)
        legacySleepReply = try c.decodeIfPresent(Bool.self, forKey: .legacySleepReply) ?? d.legacySleepReply
        absoluteUploadURLs = try c.decodeIfPresent(Bool.self, forKey: .absoluteUploadURLs) ?? d.absoluteUploadURLs
        lateReady = try c.decodeIfPresent(Bool.self, forKey: .lateReady) ?? d.lateReady
        giantChunkBytes = try c.decodeIfPresent(Int.self, forKey: .giantChunkBytes) ?? d.giantChunkBytes
        chunkFrameType = try c.decodeIfPresent(String.self, forKey: .chunkFrameType) ?? d.chunkFrameType
        pacedChunksPerSecond = try c.decodeIfPresent(Int.self, forKey: .pacedChunksPerSecond) ?? d.pacedChunksPerSecond
        pacedSeconds = try c.decodeIfPresent(Int.self, forKey: .pacedSeconds) ?? d.pacedSeconds
        pacedDocumentBytes = try c.decodeIfPresent(Int.self, forKey: .pacedDocumentBytes) ?? d.pacedDocumentBytes
    }
}
