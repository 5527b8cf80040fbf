import Testing

@testable import BuilderOSKit

/// `L(_:_:)`: a translated text with its `%@`s filled in order, without `String(format:)`. (Texts no
/// catalogue translates: the test needs them as written.)
struct TranslatedTemplateTests {
    @Test func fillsTheMarkersInOrder() {
        #expect(L("Someone said %@", "hi") == "Someone said hi")
        #expect(L("%@ next to %@", "A", "B") == "A next to B")
        #expect(L("no marker", "unused") == "no marker")
        #expect(L("%@ and %@", "only one") == "only one and ")
        #expect(L("100%% sure %@", "x") == "100%% sure x")
    }
}
