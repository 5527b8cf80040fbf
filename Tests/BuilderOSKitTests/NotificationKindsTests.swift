import Foundation
import Testing

@testable import BuilderOSKit

struct NotificationKindsTests {
    @Test func eachKindSwitchesOnItsOwnAndOldFilesStillLoad() throws {
        var kinds = NotificationKinds()
        #expect(kinds.allows(.replies) && kinds.allows(.connection) && kinds.allows(.sleep))
        kinds.connection = false
        #expect(kinds.allows(.replies) && !kinds.allows(.connection) && kinds.allows(.sleep))
        // A settings file from before the kinds existed ("notifications": true) loads with every kind on.
        let old = try JSONDecoder().decode(AppSettings.self, from: Data(#"{"device_id":"d","notifications":true}"#.utf8))
        #expect(old.notifications == NotificationKinds())
        let saved = try JSONDecoder().decode(AppSettings.self, from: Data(#"{"device_id":"d","notifications":{"sleep":false}}"#.utf8))
        #expect(saved.notifications.replies && !saved.notifications.sleep)
    }
}
