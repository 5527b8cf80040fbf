import Foundation

/// Where a link clicked inside the preview goes: pages of the preview host stay inside (any port:
/// dev servers link to each other), other web addresses open in the desktop's browser, and
/// anything else — `file://` above all — is refused.
public enum PreviewNavigation: Sendable, Equatable {
    case inside, browser, refuse

    public static func decide(uri: String, previewHost: String) -> PreviewNavigation {
        if uri == "about:blank" { return .inside }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else { return .refuse }
        switch scheme {
        case "http", "https":
            guard let host = components.host?.lowercased(), !host.isEmpty else { return .refuse }
            return normalised(host) == normalised(previewHost) ? .inside : .browser
        case "mailto": return .browser
        default: return .refuse
        }
    }

    /// Hosts compared without IPv6 brackets and case.
    private static func normalised(_ host: String) -> String {
        host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }
}

/// Why the web view could not show a page, as the error state says it.
public enum PreviewLoadFailure: Sendable, Equatable {
    case refused, timedOut, hostNotFound, tls, other(String)

    /// The sentence under "Can't show this page".
    public func message(url: String) -> String {
        switch self {
        case .refused: return L("Nothing is listening at %@. Start the dev server on the server machine, then try again.", url)
        case .timedOut:
            return String(
                format: L("%@ did not answer in time. Check that this computer can reach the server machine directly (same network or VPN)."), url)
        case .hostNotFound: return L("The host of %@ could not be found. Check the preview host in Preferences.", url)
        case .tls: return L("The secure connection to %@ failed.", url)
        case .other(let detail): return L("%@ could not be loaded: %@", url, detail)
        }
    }
}
