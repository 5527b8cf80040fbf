/// Valid inputs the mutator starts from, as real servers send them.
enum Samples {
    static let frames = [
        "authenticated", "error:invalid_api_key",
        #"{"type":"ready","identity":"jarvis","working_directory":"/srv","features":{"streaming":true}}"#,
        #"{"type":"message","content":"Hello **world**","timestamp":"2025-10-30T18:07:42.115615"}"#,
        #"{"type":"stream","content":"<tts-summary>x</tts-summary>"}"#,
        #"{"type":"complete","content":"Response complete","message_count":3,"usage":{"input_tokens":5,"cached_input_tokens":0,"output_tokens":9}}"#,
        #"{"type":"error","content":"Backend down"}"#,
        #"{"type":"message","content":{"text":["nested",1,true,null]}}"#,
    ]
    static let replies = [
        #"{"status":"running","version":"1.2.3","uptime":3600.5,"health":"ok","timestamp":"2025-10-30T18:07:42.115615","features":{"capsules":true}}"#,
        #"{"status":"ok","version":"1.0.0","timestamp":"2025-10-30T18:07:42Z","connections":{"claude":2,"codex":0}}"#,
        #"{"count":2,"capsules":[{"name":"a","title":"A","purpose":"p"},{"name":"b"}]}"#,
        #"{"name":"a","title":"A","purpose":"p","path":"/x","directories":["src","docs"]}"#,
        #"{"status":"success","message":"Mac is going to sleep","timestamp":"2025-10-30T18:07:42"}"#,
        #"{"success":false,"message":"no"}"#,
        #"{"status":"not_implemented","message":"m","instructions":{"a":"x","b":["y","z"]},"help":"h"}"#,
        #"{"url":"/api/files/1/a.png","filename":"a.png","size":3}"#,
        #"{"total":1,"sessions":[{"session_id":"d-claude-1","agent_type":"claude","device_id":"d","message_count":4,"created_at":"2025-10-30T18:07:42.1"}]}"#,
    ]
    static let keys = ["bos-0123456789abcdef", "\u{FEFF}key-abcdefgh\r\n", "abcdefgh\r\nX-Injected: yes", "k"]
    static let terminalTexts = [
        "plain text\nwith lines\tand tabs", "\u{1B}]52;c;eA==\u{07}\u{1B}[2J\u{9B}31m",
        "bidi \u{202E}txet\u{202C} and CRLF\r\n and lone\r", "emoji 👩‍💻 é 漢字 \u{7F}\u{0}",
    ]
    static let timestamps = [
        "2025-10-30T18:07:42.115615", "2025-10-30T18:07:42Z", "2025-10-30T20:07:42.250+02:00",
        "2025-10-30 18:07:42.1", "2025-10-30T18:07:42-0500",
    ]
    static let addresses = [
        "https://builderos.example.com/", "http://100.64.1.2:8080", "builderos.example.com:8443",
        "https://[2001:db8::1]:8443/api/status", "http://localhost:8080", "wss://b.example.com/base/api",
    ]
    static let replyTexts = [
        "## Title\n\n- item\n\n```swift\nprint(1)\n```\n<tts-summary>spoken</tts-summary>\nend",
        "Error: the backend failed", "Plain <b>text</b> with < and <tts and </tts-summary>",
    ]
    static let markdown = [
        "# Title\n\nSome *emphasis*, **strong**, ~~gone~~ and `code`.\n\n1. one\n2. two\n",
        "```swift\nlet x = 1\n```\n\n| A | B |\n|---|---|\n| 1 | 2 |\n",
        "> quote\n> - nested [link](https://example.com) <https://auto.example>\n\n---\n",
        "<b>raw</b> & <span foo='x'> ![img](javascript:x) [a](mailto:a@b.c)\n\n    indented code\n",
    ]
}
