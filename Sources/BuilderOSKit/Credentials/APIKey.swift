/// The one rule for what an API key may be, applied wherever a key comes in (the wizard, `builderos login`
/// from a prompt or standard input) and again before one goes out in a header or frame. A key is a token
/// of printable ASCII: a line break inside it would add a header of the server's choosing to every
/// request, a NUL would cut it short, and anything else is a copying accident the user should hear of.
public enum APIKey {
    public static let minimumLength = 8
    public static let maximumLength = 512

    /// The key as it should be stored: surrounding white space and a leading byte-order mark (a key
    /// file saved by a Windows editor) removed. Throws the reason it cannot be a key.
    public static func validated(_ input: String) throws(APIKeyProblem) -> String {
        var text = Substring(input)
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        let trimmed = text.trimmingWhiteSpace()
        guard !trimmed.isEmpty else { throw .empty }
        if let bad = trimmed.unicodeScalars.first(where: { !isTokenCharacter($0) }) {
            if bad == "\u{FFFD}" { throw .notText }
            if bad.value < 0x20 || bad.value == 0x7F { throw .containsControlCharacter }
            if bad == " " || bad == "\t" { throw .containsSpace }
            throw .nonASCII
        }
        guard trimmed.utf8.count >= minimumLength else { throw .tooShort }
        guard trimmed.utf8.count <= maximumLength else { throw .tooLong }
        return trimmed
    }

    /// Why `key` cannot go into an HTTP header or a first frame as it is, or nil when it can (the check on
    /// the way out: a key stored by an older version is refused rather than sent with a line break in it).
    public static func problemSending(_ key: String) -> APIKeyProblem? {
        if key.isEmpty { return .empty }
        guard let bad = key.unicodeScalars.first(where: { !isTokenCharacter($0) }) else { return nil }
        if bad.value < 0x20 || bad.value == 0x7F { return .containsControlCharacter }
        return bad == " " ? .containsSpace : .nonASCII
    }

    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool { (0x21...0x7E).contains(scalar.value) }
}

/// Why what was typed or read cannot be an API key. `message` is the translated sentence for the user.
public enum APIKeyProblem: Error, Sendable, Equatable {
    case empty
    case containsSpace
    case containsControlCharacter
    case nonASCII
    case notText
    case tooShort
    case tooLong

    public var message: String {
        switch self {
        case .empty: return L("No API key was given.")
        case .containsSpace: return L("The API key cannot contain spaces.")
        case .containsControlCharacter:
            return L("The API key contains a line break or another control character: copy only the key itself.")
        case .nonASCII: return L("The API key contains characters that cannot be in a key (only letters, digits and punctuation can).")
        case .notText: return L("What was given as the API key is not text.")
        case .tooShort: return L("The API key is too short: a key has at least %d characters.", String(APIKey.minimumLength))
        case .tooLong: return L("The API key is too long: a key has at most %d characters.", String(APIKey.maximumLength))
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and line breaks (Foundation-free, for the core).
    func trimmingWhiteSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
