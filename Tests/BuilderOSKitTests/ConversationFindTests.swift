import Foundation
import Testing

@testable import BuilderOSKit

/// The find bar's rules: it finds in the whole conversation (only that one), counts from the
/// newest, wraps at both ends, and marks in the shown text exactly the words the index matched.
struct ConversationFindTests {
    func marked(_ query: String, in text: String) -> [String] {
        let bytes = Array(text.utf8)
        return TextMatches.utf8Ranges(of: SearchQuery(query).terms, in: text).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func theShownTextIsMarkedByTheIndexsRules() {
        #expect(marked("resume", in: "Mon Résumé est prêt, resumed later") == ["Résumé", "resumed"], "accents and case fold; a word is a prefix")
        #expect(
            marked("\"the server\"", in: "the servers: the server, The  Server.") == ["the server", "The  Server"], "a phrase is whole words in a row"
        )
        #expect(marked("kube roll", in: "Run `kubectl rollout restart`") == ["kubectl", "rollout"])
        #expect(marked("straße -old", in: "Straße und Übung, old") == ["Straße"], "an exclusion marks nothing")
        #expect(marked("ubung", in: "🚀 Übung") == ["Übung"], "byte ranges after multi-byte characters")
        #expect(marked("  \"\" -x", in: "anything").isEmpty)
        #expect(marked("ab abc", in: "abcd") == ["abcd"], "overlapping matches merge")
    }

    @Test func nextGoesBackInTimeAndBothEndsWrap() {
        let found = (1...3).map { FoundMessage(id: UUID(), sequence: Int64(10 - $0)) }
        var find = ConversationFind()
        #expect(find.next() == nil && find.position == nil)
        #expect(find.replace(with: found) == found[0])
        #expect(find.position! == (1, 3))
        #expect(find.next() == found[1] && find.next() == found[2])
        #expect(find.next() == found[0], "past the oldest: the newest again")
        #expect(find.previous() == found[2] && find.position! == (3, 3))
        find.clear()
        #expect(find.position == nil && find.matches.isEmpty)
    }

    @Test func findsInTheWholeConversationAndOnlyThere() {
        let store = HistoryStore.inMemory()
        let c = Conversation(agent: .jarvis, title: "Long")
        let other = Conversation(agent: .codex, title: "Other")
        store.insert(c)
        store.insert(other)
        var wanted: [UUID] = []
        for n in 0..<600 {
            let text = n % 100 == 7 ? "deploy number \(n)" : "nothing to see \(n)"
            let message = store.append(ChatMessage(conversation: c.id, role: n % 2 == 0 ? .user : .assistant, text: text, state: .complete))
            if n % 100 == 7 { wanted.append(message.id) }
        }
        store.append(ChatMessage(conversation: other.id, role: .user, text: "deploy elsewhere", state: .sent))
        store.append(ChatMessage(conversation: c.id, role: .status, text: "deploy failed", state: .complete))
        let found = store.find(SearchQuery("depl"), in: c.id)
        #expect(found.map(\.id) == wanted.reversed(), "every match, the newest first; not the other conversation's, not status pills")
        #expect(found.map(\.sequence) == found.map(\.sequence).sorted(by: >))
        #expect(store.find(SearchQuery("-deploy"), in: c.id).isEmpty)
    }
}
