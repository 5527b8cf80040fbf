import Foundation
import Testing
@testable import BuilderOSKit

/// The first screen: the newest messages until about a screen and a half of text.
struct FirstScreenTests {
    let conversation = UUID()

    func messages(_ lengths: [Int]) -> [ChatMessage] {
        lengths.map { ChatMessage(conversation: conversation, role: .assistant, text: String(repeating: "x", count: $0), state: .complete) }
    }

    @Test func shortMessagesAreAllKept() {
        let all = messages([50, 60, 70, 80, 90, 100, 110, 120])
        #expect(FirstScreen.messages(all) == all)
    }

    @Test func longRepliesStopTheScreenEarly() {
        let all = messages([3_000, 200, 3_000, 100, 2_500])
        // 2,500 + 100 = 2,600 fits; with the next 3,000 it would not.
        #expect(FirstScreen.messages(all) == Array(all.suffix(2)))
    }

    @Test func theNewestAreKeptWhateverTheirLength() {
        let all = messages([10, 20, 9_000, 8_000])
        #expect(FirstScreen.messages(all) == Array(all.suffix(2)))
        #expect(FirstScreen.messages(Array(all.suffix(1))) == Array(all.suffix(1)))
        #expect(FirstScreen.messages([]) == [])
    }

    @Test func theOrderStaysOldestFirst() {
        let all = messages([1, 2, 3])
        #expect(FirstScreen.messages(all).map(\.text.count) == [1, 2, 3])
    }
}
