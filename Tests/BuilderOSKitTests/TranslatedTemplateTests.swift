import Testing

@testable import BuilderOSKit

/// `L(_:_:)` and `L(_:_:counting:_:)`: a translated text with its markers filled, without
/// `String(format:)`. (Texts no catalogue translates: the test needs them as written.)
struct TranslatedTemplateTests {
    @Test func fillsTheMarkersInOrder() {
        #expect(L("Someone said %@", "hi") == "Someone said hi")
        #expect(L("%@ next to %@", "A", "B") == "A next to B")
        #expect(L("%@ (Ctrl+%d)", "Chat", "1") == "Chat (Ctrl+1)")
        #expect(L("no marker", "unused") == "no marker")
        #expect(L("%@ and %@", "only one") == "only one and ")
    }

    /// A translation may reorder its values by number, as `String(format:)` allows.
    @Test func fillsNumberedMarkers() {
        #expect(L("%2$@ before %1$@", "A", "B") == "B before A")
        #expect(L("%1$@ on %2$@ — BuilderOS", "Chat", "mini") == "Chat on mini — BuilderOS")
    }

    /// `%%` is a percent sign, as in a format; any other `%` is left as written.
    @Test func percentSigns() {
        #expect(L("Indexing… %d%%", "42") == "Indexing… 42%")
        #expect(L("100%% sure %@", "x") == "100% sure x")
        #expect(L("50% off %@", "x") == "50% off x")
        #expect(L("ends with %", "x") == "ends with %")
        #expect(L("%5 and %@", "x") == "%5 and x")
    }

    @Test func countsFillTheFirstMarker() {
        #expect(L("%d day", "%d days", counting: 1) == "1 day")
        #expect(L("%d day", "%d days", counting: 3) == "3 days")
        #expect(
            L("Exported %d conversation to %@.", "Exported %d conversations to %@.", counting: 2, "/tmp/x")
                == "Exported 2 conversations to /tmp/x.")
    }
}
