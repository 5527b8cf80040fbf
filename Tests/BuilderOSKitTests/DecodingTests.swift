import Foundation
import Testing

@testable import BuilderOSKit

/// Replies as real servers send them, quirks included.
struct DecodingTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try WireJSON.decoder().decode(T.self, from: Data(json.utf8))
    }

    @Test func statusWithAndWithoutFeaturesAndUnknownKeys() throws {
        let plain = try decode(
            StatusReply.self, #"{"status":"running","version":"1.2.3","uptime":3600.5,"health":"ok","timestamp":"2025-10-30T18:07:42.115615"}"#)
        #expect(plain.version == "1.2.3" && plain.uptime == 3600.5 && plain.features == nil)
        let rich = try decode(
            StatusReply.self,
            #"{"status":"running","version":"2","uptime":1,"health":"ok","features":{"capsules":true,"terminal":false},"cpu":{"load":0.3},"extra":[1,2]}"#
        )
        #expect(rich.features == ["capsules": true, "terminal": false])
        let integerUptime = try decode(StatusReply.self, #"{"status":"running","uptime":42}"#)
        #expect(integerUptime.uptime == 42 && integerUptime.version == nil)
    }

    @Test func healthWithConnectionsAndRicherVariants() throws {
        let health = try decode(
            HealthReply.self,
            #"{"status":"ok","version":"1.0.0","timestamp":"2025-10-30T18:07:42.115615","connections":{"claude":2,"codex":0},"sessions":5,"cli_processes":[]}"#
        )
        #expect(health.connections?.claude == 2 && health.connections?.codex == 0)
    }

    @Test(arguments: [
        ("2025-10-30T18:07:42.115615", true),
        ("2025-10-30T18:07:42", true),
        ("2025-10-30T18:07:42Z", true),
        ("2025-10-30T18:07:42.5Z", true),
        ("2025-10-30T18:07:42.115615+02:00", true),
        ("2025-10-30T18:07:42-0500", true),
        ("2025-10-30 18:07:42.1", true),
        ("yesterday", false),
        ("", false),
        ("2025-13-45", false),
    ])
    func timestampsNeverFailTheDecode(text: String, parses: Bool) throws {
        let status = try decode(StatusReply.self, #"{"status":"running","timestamp":"\#(text)"}"#)
        #expect(status.timestamp?.text == text)
        #expect((status.timestamp?.date != nil) == parses)
    }

    @Test func offsetLessTimestampIsLocalTimeAndZIsUTC() throws {
        let utc = try #require(FlexibleTimestamp(text: "2025-10-30T18:07:42.250Z").date)
        #expect(utc.timeIntervalSince1970 == 1_761_847_662.25)
        let offset = try #require(FlexibleTimestamp(text: "2025-10-30T20:07:42.250+02:00").date)
        #expect(offset == utc)
        let local = try #require(FlexibleTimestamp(text: "2025-10-30T18:07:42.250").date)
        #expect(local.timeIntervalSince(utc) == -Double(TimeZone.current.secondsFromGMT(for: local)))
    }

    @Test func capsulesWithUnknownKeysAndMissingTitles() throws {
        let list = try decode(
            CapsuleList.self, #"{"count":2,"capsules":[{"name":"a","title":"A","purpose":"p","status":"active"},{"name":"b"}],"generated":"now"}"#)
        #expect(list.capsules.map(\.displayTitle) == ["A", "b"])
        let detail = try decode(CapsuleDetail.self, #"{"name":"a","title":"A","purpose":"p","path":"/x","directories":["src","docs"],"size":3}"#)
        #expect(detail.directories == ["src", "docs"])
        let bare = try decode(CapsuleDetail.self, #"{"name":"a"}"#)
        #expect(bare.path == nil && bare.directories == nil)
    }

    @Test func bothSleepReplyShapes() throws {
        #expect(try decode(SleepReply.self, #"{"status":"success","message":"Mac is going to sleep","timestamp":"2025-10-30T18:07:42"}"#).succeeded)
        let refused = try decode(SleepReply.self, #"{"status":"error","message":"Permission denied","help":"Run with sudo"}"#)
        #expect(!refused.succeeded && refused.help == "Run with sudo")
        #expect(try decode(SleepReply.self, #"{"success":true,"message":"ok"}"#).succeeded)
        #expect(try !decode(SleepReply.self, #"{"success":false,"message":"no"}"#).succeeded)
        #expect(throws: (any Error).self) { try decode(SleepReply.self, #"{"message":"?"}"#) }
    }

    @Test func wakeInstructionsInAnyShape() throws {
        let object = try decode(WakeReply.self, #"{"status":"not_implemented","message":"m","instructions":{"b":"second","a":"first"},"help":"h"}"#)
        #expect(object.instructions == ["first", "second"])
        let list = try decode(WakeReply.self, #"{"status":"not_implemented","instructions":["one","two"]}"#)
        #expect(list.instructions == ["one", "two"])
        let none = try decode(WakeReply.self, #"{"status":"not_implemented"}"#)
        #expect(none.instructions.isEmpty)
    }

    @Test func uploadURLsRelativeAndAbsolute() throws {
        let base = try ServerAddress.parse("https://b.example.com/base")
        let relative = try decode(UploadReply.self, #"{"url":"/api/files/1/a.png","filename":"a.png","size":3}"#)
        #expect(relative.resolvedURL(base: base) == "https://b.example.com/base/api/files/1/a.png")
        let bare = try decode(UploadReply.self, #"{"url":"api/files/1/a.png"}"#)
        #expect(bare.resolvedURL(base: base) == "https://b.example.com/base/api/files/1/a.png")
        let absolute = try decode(UploadReply.self, #"{"url":"https://cdn.example.com/f/a.png","filename":"a.png","size":3}"#)
        #expect(absolute.resolvedURL(base: base) == "https://cdn.example.com/f/a.png")
    }

    @Test func sessionsList() throws {
        let list = try decode(
            SessionList.self,
            #"{"total":1,"sessions":[{"session_id":"d-claude-1","agent_type":"claude","device_id":"d","message_count":4,"created_at":"2025-10-30T18:07:42.1","last_activity":"2025-10-30T18:09:00"}]}"#
        )
        #expect(list.sessions.first?.sessionId == "d-claude-1" && list.sessions.first?.messageCount == 4)
    }

    @Test(arguments: [
        ("authenticated", ChatFrame.authenticated),
        ("error:invalid_api_key", .authenticationFailed(reason: "invalid_api_key")),
        (#"{"type":"ready","identity":"jarvis","capsule":{"x":1},"features":["a"]}"#, .ready),
        (#"{"type":"message","content":"Hel","timestamp":"2025-10-30T18:07:42.1"}"#, .chunk("Hel")),
        (#"{"type":"stream","content":"lo"}"#, .chunk("lo")),
        (#"{"type":"message","content":""}"#, .chunk("")),
        (
            #"{"type":"complete","content":"Response complete","message_count":3,"usage":{"input_tokens":5,"cached_input_tokens":0,"output_tokens":9}}"#,
            .complete(messageCount: 3, usage: .init(inputTokens: 5, cachedInputTokens: 0, outputTokens: 9))
        ),
        (#"{"type":"complete"}"#, .complete(messageCount: nil, usage: nil)),
        (#"{"type":"error","content":"Backend down"}"#, .error("Backend down")),
        (#"{"type":"tool_use","content":"…"}"#, .unknown(type: "tool_use")),
        (#"{"content":"no type"}"#, .malformed),
        ("not json", .malformed),
        (#"["array"]"#, .malformed),
        (#"{"type":"message","content":{"text":"nested"}}"#, .chunk("nested")),
    ])
    func chatFrames(text: String, expected: ChatFrame) {
        #expect(ChatFrame(text: text) == expected)
    }

    @Test func outgoingMessageMatchesTheContract() throws {
        let attachment = ChatAttachment(id: "1", filename: "a.png", mimeType: "image/png", size: 3, type: "photo", url: "/api/files/1/a.png")
        let message = OutgoingChatMessage(content: "  hello \n", sessionId: "d-claude-x", deviceId: "d", agent: .jarvis, attachments: [attachment])
        let object = try #require(JSONSerialization.jsonObject(with: Data(message.json().utf8)) as? [String: Any])
        #expect(object["content"] as? String == "hello")
        #expect(object["session_id"] as? String == "d-claude-x")
        #expect(object["device_id"] as? String == "d")
        #expect(object["chat_type"] as? String == "jarvis")
        let first = try #require((object["attachments"] as? [[String: Any]])?.first)
        #expect(first["mime_type"] as? String == "image/png" && first["url"] as? String == "/api/files/1/a.png")
        let bare = OutgoingChatMessage(content: "x", sessionId: "s", deviceId: "d", agent: .codex)
        #expect(!bare.json().contains("attachments") && bare.json().contains(#""chat_type":"codex""#))
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        #expect(OutgoingChatMessage.sessionID(deviceID: "dev", agent: .jarvis, conversation: id) == "dev-claude-6f9619ff-8b86-d011-b42d-00c04fc964ff")
    }
}
