// Seeded fuzzing of every decoder the client feeds with outside bytes: chat frames, REST replies,
// timestamps, server addresses, the streaming reply filter and the Markdown renderer. A crash ends the process (and
// the run); otherwise it prints how many inputs each decoder took.
//   builderos-fuzz [ITERATIONS] [SEED]     (ITERATIONS in total, spread over the decoders)
import BuilderOSKit
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let total = arguments.first.flatMap(Int.init) ?? 1_000_000
let seed = arguments.dropFirst().first.flatMap(UInt64.init) ?? 20_261_121
var mutator = Mutator(seed: seed)
let decoder = JSONDecoder()
decoder.keyDecodingStrategy = .convertFromSnakeCase

struct Target {
    let name: String
    let samples: [String]
    let run: (inout Mutator, [UInt8]) -> Void
}

func decodes<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) { _ = try? decoder.decode(T.self, from: Data(bytes)) }

let targets: [Target] = [
    Target(name: "chat frames", samples: Samples.frames) { _, bytes in _ = ChatFrame(text: String(decoding: bytes, as: UTF8.self)) },
    Target(name: "REST replies", samples: Samples.replies) { m, bytes in
        switch m.below(8) {
        case 0: decodes(StatusReply.self, bytes)
        case 1: decodes(HealthReply.self, bytes)
        case 2: decodes(CapsuleList.self, bytes)
        case 3: decodes(CapsuleDetail.self, bytes)
        case 4: decodes(SleepReply.self, bytes)
        case 5: decodes(WakeReply.self, bytes)
        case 6: decodes(UploadReply.self, bytes)
        default: decodes(SessionList.self, bytes)
        }
    },
    Target(name: "timestamps", samples: Samples.timestamps) { _, bytes in _ = FlexibleTimestamp(text: String(decoding: bytes, as: UTF8.self)) },
    Target(name: "server addresses", samples: Samples.addresses) { _, bytes in
        if let address = try? ServerAddress.parse(String(decoding: bytes, as: UTF8.self)) {
            _ = address.webSocketURL(path: "/api/claude/ws")
            _ = address.transportWarning
            precondition(!address.displayURL.unicodeScalars.contains(where: VisibleText.needsEscape), "an address shows a control")
        }
    },
    Target(name: "streamed replies", samples: Samples.replyTexts) { m, bytes in
        var accumulator = ReplyAccumulator()
        let text = String(decoding: bytes, as: UTF8.self)
        var index = text.startIndex
        while index < text.endIndex {
            let end = text.index(index, offsetBy: 1 + m.below(12), limitedBy: text.endIndex) ?? text.endIndex
            _ = accumulator.append(String(text[index..<end]))
            index = end
        }
        _ = accumulator.finish()
    },
    Target(name: "API keys", samples: Samples.keys) { _, bytes in
        if let key = try? APIKey.validated(String(decoding: bytes, as: UTF8.self)) {
            precondition(APIKey.problemSending(key) == nil, "a valid key that cannot be sent")
        }
    },
    Target(name: "server text for a terminal", samples: Samples.terminalTexts) { _, bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = VisibleText.escapingControls(text)
        precondition(!shown.unicodeScalars.contains { VisibleText.needsEscape($0) || $0 == "\r" }, "a control reached the terminal")
        let json = try? JSONSerialization.data(withJSONObject: ["v": text])
        if let json {
            let escaped = VisibleText.escapingControlsInJSON(String(decoding: json, as: UTF8.self))
            precondition(!escaped.unicodeScalars.contains(where: VisibleText.needsEscape), "a control reached the JSON")
            let back = try? JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
            precondition(back?["v"] == text, "escaped JSON says something else")
        }
    },
    Target(name: "Markdown", samples: Samples.markdown) { _, bytes in
        for block in MarkdownParser.parse(String(decoding: bytes, as: UTF8.self)) {
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines): _ = PangoMarkup.render(inlines)
            case .table(let header, let rows): _ = header.map(PangoMarkup.render); _ = rows.flatMap { $0 }.map(PangoMarkup.render)
            default: break
            }
        }
    },
]

let started = Date()
let perTarget = max(1, (total + targets.count - 1) / targets.count)  // at least `total` in all
for target in targets {
    let samples = target.samples.map { Array($0.utf8) }
    for _ in 0..<perTarget {
        let input = mutator.mutate(samples[mutator.below(samples.count)], other: samples[mutator.below(samples.count)])
        target.run(&mutator, input)
    }
    print("\(target.name): \(perTarget) inputs, 0 crashes")
}
print(String(format: "%d inputs in %.1f s (seed %llu)", perTarget * targets.count, Date().timeIntervalSince(started), seed))
print("\(targets.count) passed, 0 failed")
