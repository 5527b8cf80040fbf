import Testing

@testable import BuilderOSKit

/// A new conversation takes its title from the first message, as it reads (no Markdown syntax).
struct ConversationTitleTests {
    @Test(arguments: [
        ("Hello from the **desktop**", "Hello from the desktop"),
        ("# Deploy plan\nstep one", "Deploy plan"),
        ("- fix the `build` script\n- then test", "fix the build script"),
        ("\n\n  plain words  ", "plain words"),
        ("[the guide](https://example.com) says *so*", "the guide says so"),
        (String(repeating: "long ", count: 30), String(String(repeating: "long ", count: 30).prefix(48))),
    ])
    func titleFromTheFirstMessage(message: String, title: String) {
        #expect(Conversation.title(fromFirstMessage: message) == title)
    }
}
