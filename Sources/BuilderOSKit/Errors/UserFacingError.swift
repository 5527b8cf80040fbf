import Foundation

/// The one place where failures become words: a sentence saying what happened, and a fix-it
/// sentence saying what the user can do. All of them are translatable.
extension BuilderOSError {
    public var userMessage: String {
        switch self {
        case .invalidServerAddress(let problem): return problem.message
        case .hostNotFound(let host):
            return L("The server name “%@” could not be found.", host)
        case .connectionRefused: return L("The server refused the connection.")
        case .networkUnreachable: return L("This computer is not connected to a network that can reach the server.")
        case .tlsFailure(let problem): return problem.message
        case .timedOut: return L("The server took too long to answer.")
        case .connectionLost: return L("The connection to the server was lost.")
        case .cancelled: return L("The request was cancelled.")
        case .unauthorized: return L("The server rejected the API key.")
        case .notAvailableOnServer: return L("This feature is not available on this server.")
        case .payloadTooLarge: return L("The server refused the file because it is too large.")
        case .serverError(let status, let message):
            if let message, !message.isEmpty {
                return L("The server reported an error (%d): %@", String(status), message)
            }
            return L("The server reported an error (%d).", String(status))
        case .tunnelError(let status):
            return L("The tunnel in front of your server answered, but your server did not (error %d).", String(status))
        case .redirected(let status, let location?):
            return String(
                format: L(
                    "The server answered with a redirect (%d) to “%@”. BuilderOS does not follow redirects, so your API key only goes to the address you set up."
                ), status, location)
        case .redirected(let status, nil):
            return L("The server answered with a redirect (%d) without saying where to.", String(status))
        case .replyTooLarge(let limit):
            return L("The reply grew larger than %d MB, the most this app keeps. The part that arrived is kept.", String(limit >> 20))
        case .closedOnMessage(let attempts):
            // Always more than one attempt (ChatTurn.maxDeliveries).
            return String(
                format: L("The server closed the connection on this message every time it was sent (%d attempts), so it was not sent again."),
                attempts)
        case .replyDeadlinePassed(let seconds):
            let span =
                seconds < 60
                ? L("%d second", "%d seconds", counting: seconds)
                : Durations.words(seconds: Double(seconds))
            return L("The server accepted the message but has sent nothing for %@.", span)
        case .invalidAPIKey(let problem): return problem.message
        case .malformedResponse: return L("The server sent a reply this app cannot read.")
        case .responseTooLarge: return L("The server sent a reply that is too large.")
        case .fileTooLarge:
            return L("The file is larger than 50 MB, the most the server accepts.")
        case .fileUnreadable(let path): return L("The file “%@” cannot be read.", path)
        case .fileUnwritable(let path): return L("The file “%@” cannot be written.", path)
        case .historyImportRefused(let problem): return problem.message
        case .serverRefused(let message): return message
        case .secretServiceUnavailable:
            return L("No keyring service is running, so the API key cannot be stored safely.")
        case .keyringLocked: return L("Your keyring is locked, or it has no default collection.")
        case .notSignedIn: return L("You are not signed in to a BuilderOS server.")
        case .serverAlreadyAdded(let name): return L("This server is already set up, as “%@”.", name)
        case .unknownServer(let name): return L("No server named “%@” is set up on this computer.", name)
        case .serverNameTaken(let name): return L("Another server is already called “%@”.", name)
        case .other(let detail): return L("Something went wrong: %@", detail)
        }
    }

    /// The sentence and its fix-it as one paragraph: a dialog's body, a page's status line.
    public var sentenceWithFix: String { [userMessage, fixIt].compactMap { $0 }.joined(separator: " ") }

    /// What the user can do about it, or nil when there is nothing useful to suggest.
    public var fixIt: String? {
        switch self {
        case .invalidServerAddress: return L("Check the address: it usually looks like https://builderos.example.com.")
        case .hostNotFound: return L("Check the address for typing mistakes, and check that your tunnel is running.")
        case .connectionRefused:
            return L("Check that BuilderOS is running on the server and that the port in the address is right.")
        case .networkUnreachable: return L("Check your network connection, or connect to your VPN.")
        case .tlsFailure(let problem): return problem.fixIt
        case .timedOut, .connectionLost: return L("Check that the server is awake and online, then try again.")
        case .unauthorized:
            return L("Copy the key again from the server (run “%@” there) and paste it exactly.", ServerKeyHint.command)
        case .tunnelError: return L("Start BuilderOS on the server machine, or restart the tunnel, then try again.")
        case .redirected(_, .some): return L("If your server has moved, sign in again with its new address.")
        case .redirected(_, nil): return L("Check that the address points to a BuilderOS server, not another website.")
        case .closedOnMessage: return L("The server's log may say what it could not handle. The message is kept: you can send it again.")
        case .replyDeadlinePassed: return L("Check that the assistant is running on the server, then send the message again.")
        case .invalidAPIKey:
            return L("Copy the key again from the server (run “%@” there) and paste it exactly.", ServerKeyHint.command)
        case .malformedResponse: return L("Check that the address points to a BuilderOS server, not another website.")
        case .secretServiceUnavailable:
            return L("Install and start a keyring such as GNOME Keyring (package “gnome-keyring”), then try again.")
        case .keyringLocked: return L("Unlock your keyring (for example in the Passwords and Keys app), then try again.")
        case .notSignedIn: return L("Run the setup again to connect to your server.")
        case .serverAlreadyAdded: return L("Switch to it instead, or replace its key on the Connection page.")
        case .unknownServer: return L("Use a name or address from the list of servers (builderos servers).")
        case .serverNameTaken: return L("Choose another name: each server's name picks it out (--server NAME).")
        case .fileTooLarge, .payloadTooLarge: return L("Choose a smaller file, or compress it first.")
        case .fileUnwritable: return L("Choose a folder you can write to, with enough free space.")
        case .historyImportRefused: return L("Nothing was imported. Choose a file made with “Export” in BuilderOS Desktop.")
        case .serverError, .responseTooLarge, .replyTooLarge, .other, .notAvailableOnServer, .cancelled, .fileUnreadable, .serverRefused:
            return nil
        }
    }
}

extension TLSProblem {
    var message: String {
        switch self {
        case .selfSigned: return L("The server's certificate is self-signed, so this computer cannot tell it from an impostor's.")
        case .untrustedIssuer: return L("The server's certificate is self-signed or issued by an authority this computer does not trust.")
        case .otherName(let host, let names) where names.isEmpty:
            return L("The server's certificate is not for %@.", host)
        case .otherName(let host, let names):
            return L("The server's certificate is for %@, not for %@.", names.joined(separator: ", "), host)
        case .expired: return L("The server's certificate has expired.")
        case .notYetValid: return L("The server's certificate is not valid yet.")
        case .unknown: return L("A secure connection to the server could not be established.")
        }
    }

    var fixIt: String {
        switch self {
        case .selfSigned, .untrustedIssuer:
            return L(
                "If it is your own certificate or authority, trust it for this server: “Trust a Certificate Authority…” in the setup, or builderos login --ca-file FILE. Or add it to this computer's trusted certificates: copy it to /usr/local/share/ca-certificates/ (ending in .crt) and run “sudo update-ca-certificates”."
            )
        case .otherName(_, let names) where !names.isEmpty:
            return String(
                format: L("Use the address the certificate was made for (%@), or give the server a certificate for this address."), names[0])
        case .otherName: return L("Check the address, or give the server a certificate for this address.")
        case .expired:
            return L(
                "Renew the certificate on the server (for example with “certbot renew”). If it is still valid, check this computer's date and time.")
        case .notYetValid: return L("Check this computer's date and time.")
        case .unknown: return L("Check the address: if your server has no certificate, use http:// on a private network instead.")
        }
    }
}
