import CShims
import Foundation

/// gettext for the whole app. Every user-visible string goes through `L(_:)` so that `xgettext`
/// (keyword `L`) finds it and the `builderos-desktop` catalogue translates it.
public enum Localization {
    public static let domain = "builderos-desktop"

    /// Binds the text domain to `localeDirectory` (installed `share/locale`, or the build tree's).
    public static func setUp(localeDirectory: String?) {
        bos_setlocale_from_environment()
        bos_bindtextdomain(domain, localeDirectory)
    }

    /// Where compiled translations are: run from the build folder, `<bin>/locale`, compiled from the checkout's
    /// `po/` when missing or stale; installed, the prefix's `share/locale` (`<prefix>/bin/x` → `<prefix>/share/locale`);
    /// nil to use the system's default.
    public static func directory() -> String? {
        if SourceTree.runsFromBuildFolder { return buildFolderCatalogues() }
        let installed = SourceTree.installedShare.appendingPathComponent("locale").path
        return FileManager.default.fileExists(atPath: installed) ? installed : nil
    }

    private static func buildFolderCatalogues() -> String {
        let target = SourceTree.binaryFolder.appendingPathComponent("locale")
        let po = SourceTree.root.appendingPathComponent("po")
        let languages = ((try? String(contentsOf: po.appendingPathComponent("LINGUAS"), encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.hasPrefix("#") }
        for language in languages {
            let source = po.appendingPathComponent("\(language).po")
            let catalogue = target.appendingPathComponent("\(language)/LC_MESSAGES/\(domain).mo")
            guard SourceTree.isStale(catalogue, sources: [source]) else { continue }
            try? FileManager.default.createDirectory(at: catalogue.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Written aside and renamed: tests start several processes at once, none may read half a file.
            let partial = catalogue.path + ".\(getpid()).partial"
            SourceTree.run("msgfmt", ["--output-file=" + partial, source.path])
            _ = rename(partial, catalogue.path)
        }
        return target.path
    }
}

/// Translates a message id in the app's gettext domain.
///
/// gettext returns `msgid`'s own pointer when there is no translation, so the result must be
/// copied while that pointer is still alive: inside `withCString`, never after.
public func L(_ msgid: String) -> String {
    msgid.withCString { String(cString: bos_dgettext(Localization.domain, $0)) }
}

/// Translates `msgid` and puts `values` in place of its `%@` and `%d` markers, in order or as numbered
/// (`%2$@`); `%%` is a percent sign. `String(format:)` without Foundation's format machinery: its
/// first use of each argument type scans all of the executable's protocol conformances, in the
/// first frame and in `builderos status` after its reply came, and it was most of the time each
/// bound message row took to label itself for screen readers while scrolling.
public func L(_ msgid: String, _ values: String...) -> String {
    Localization.filling(L(msgid), with: values)
}

/// Translates a message with a count, in the plural form the language needs, with the count in place
/// of its first marker and `values` in the next, as `L(_:_:)` above.
public func L(_ singular: String, _ plural: String, counting count: Int, _ values: String...) -> String {
    Localization.filling(L(singular, plural, count: count), with: [String(count)] + values)
}

extension Localization {
    /// `template` with `values` in place of its markers (see `L(_:_:)`); any other `%` stays as it is.
    static func filling(_ template: String, with values: [String]) -> String {
        let percent = UInt8(ascii: "%")
        let bytes = Array(template.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + values.reduce(0) { $0 + $1.utf8.count })
        var i = 0
        var next = 0
        while i < bytes.count {
            guard bytes[i] == percent, i + 1 < bytes.count else {
                result.append(bytes[i])
                i += 1
                continue
            }
            if bytes[i + 1] == percent {
                result.append(percent)
                i += 2
                continue
            }
            var j = i + 1
            var number = 0
            while j < bytes.count, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9") {
                number = number * 10 + Int(bytes[j] - UInt8(ascii: "0"))
                j += 1
            }
            let numbered = j > i + 1 && j < bytes.count && bytes[j] == UInt8(ascii: "$")
            if numbered { j += 1 }
            guard j < bytes.count, j == i + 1 || numbered, bytes[j] == UInt8(ascii: "@") || bytes[j] == UInt8(ascii: "d") else {
                result.append(percent)
                i += 1
                continue
            }
            let index = numbered ? number - 1 : next
            if !numbered { next += 1 }
            if values.indices.contains(index) { result += values[index].utf8 }
            i = j + 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// Translates a message with a count, choosing the plural form the language needs.
public func L(_ singular: String, _ plural: String, count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in
            String(cString: bos_dngettext(Localization.domain, one, many, UInt(max(count, 0))))
        }
    }
}
