/// Whether the server runs the BuilderOS system server, as a call to one of its routes (capsules,
/// sleep, wake) shows it: an answer means yes, a 404 no (wire contract); any other failure says
/// nothing. Servers that list `features` in their status say it there (`capsules`). The one rule
/// the session's probe, the pages and the CLI apply.
public enum SystemServerPresence {
    /// What a status reply's `features` say; nil when it does not list capsules.
    public static func shown(by status: StatusReply) -> Bool? { status.features?["capsules"] }

    public static func shown<T>(by result: Result<T, BuilderOSError>) -> Bool? {
        switch result {
        case .success: true
        case .failure(.notAvailableOnServer): false
        case .failure: nil
        }
    }
}
