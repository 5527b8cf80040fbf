import Foundation
import Testing

@testable import BuilderOSKit

/// The message list reads its rows' ids back from text: every canonical UUID as Foundation writes it
/// (and in lower case), nothing else.
struct UUIDTextTests {
    @Test func readsWhatFoundationWrites() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(UUIDText.parse(id.uuidString) == id)
            #expect(UUIDText.parse(id.uuidString.lowercased()) == id)
        }
        #expect(UUIDText.parse("00000000-0000-0000-0000-000000000000") == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        #expect(UUIDText.parse("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF") == UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"))
    }

    @Test func refusesAnythingElse() {
        let good = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        #expect(UUIDText.parse(good) != nil)
        for bad in [
            "", "E621E1F8", String(good.dropLast()), good + "0", good + " ", " " + good,
            good.replacingOccurrences(of: "-", with: ""), good.replacingOccurrences(of: "-", with: "_"),
            "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC0-C247A3E6E5F",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5\u{e9}",
        ] {
            #expect(UUIDText.parse(bad) == nil, "\(bad)")
            #expect(UUID(uuidString: bad) == nil, "Foundation disagrees on \(bad)")
        }
    }
}
