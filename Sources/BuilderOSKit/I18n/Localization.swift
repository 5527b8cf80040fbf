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

/// Translates `msgid` and puts `values` in place of its `%@`s, in order: `String(format:)` without
/// Foundation's format machinery (CFString), for texts made while scrolling — each bound message row
/// labels itself for screen readers, and `String(format:)` was most of that. Only
/// `%@`; anything else in the text stays as it is.
public func L(_ msgid: String, _ values: String...) -> String {
    let template = L(msgid)
    var result = ""
    var rest = template[...]
    var next = values.makeIterator()
    while let marker = rest.range(of: "%@") {
        result += rest[..<marker.lowerBound]
        result += next.next() ?? ""
        rest = rest[marker.upperBound...]
    }
    return result + rest
}

/// Translates a message with a count, choosing the plural form the language needs.
public func L(_ singular: String, _ plural: String, count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in
            String(cString: bos_dngettext(Localization.domain, one, many, UInt(max(count, 0))))
        }
    }
}
