import Foundation
import Testing

/// GLib functions that keep the pointer they are given (`g_quark_from_static_string`,
/// `g_intern_static_string`) take only C string literals: from Swift, a string argument is a
/// temporary C string, freed after the call, and GLib then compared later keys against freed memory
/// (AddressSanitizer found it crashing `g_object_get_data` while a reply streamed). Swift sources
/// use the copying `g_quark_from_string` and `g_intern_string`.
struct CStringLifetimeTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    @Test func noSwiftSourceHandsGLibATemporaryAsAStaticString() throws {
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 100, "found the Swift sources (\(files.count))")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                && (line.contains("g_quark_from_static_string(") || line.contains("g_intern_static_string("))
            {
                offenders.append("\(file.lastPathComponent):\(number + 1)")
            }
        }
        #expect(offenders.isEmpty, "static-string GLib calls from Swift: \(offenders)")
    }
}
