import Foundation
import Testing

/// gettext's inputs stay complete: every source file that marks strings with L("…") is in
/// po/POTFILES (meson-helpers/update-pot --check).
struct TranslationFilesTests {
    @Test func potfilesListsEveryFileThatMarksStrings() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("meson-helpers/update-pot").path
        let result = try await CLISandbox().run([script, "--check"], executable: "/bin/bash")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
