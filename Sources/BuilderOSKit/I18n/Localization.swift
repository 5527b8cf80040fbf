import Foundation
import CShims

/// gettext for the whole app. Every user-visible string goes through `L(_:)` so that `xgettext`
/// (keyword `L`) finds it and the `builderos-desktop` catalogue translates it.
public enum Localization {
    public static let domain = "builderos-desktop"

    /// Binds the text domain to `localeDirectory` (installed `share/locale`, or the build tree's).
    public static func setUp(localeDirectory: String?) {
        bos_setlocale_from_environment()
        bos_bindtextdomain(domain, localeDirectory)
    }

    /// Where compiled translations are: the installed prefix's `share/locale`, next to the binary
    /// (`<prefix>/bin/x` → `<prefix>/share/locale`); nil to use the system's default.
    public static func installedDirectory() -> String? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidate = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/locale").path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }
}

/// Translates a message id in the app's gettext domain.
///
/// gettext returns `msgid`'s own pointer when there is no translation, so the result must be
/// copied while that pointer is still alive: inside `withCString`, never after.
public func L(_ msgid: String) -> String {
    msgid.withCString { String(cString: bos_dgettext(Localization.domain, $0)) }
}

/// Translates a message with a count, choosing the plural form the language needs.
public func L(_ singular: String, _ plural: String, count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in
            String(cString: bos_dngettext(Localization.domain, one, many, UInt(max(count, 0))))
        }
    }
}
