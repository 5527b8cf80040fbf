import Foundation

/// What was wrong with the server's certificate, as far as the TLS handshake told. Verification is
/// never switched off: each case only chooses the sentence and the fix (`UserFacingError`).
public enum TLSProblem: Sendable, Equatable {
    /// The certificate signs itself (made on the server, not by an authority).
    case selfSigned
    /// Issued by an authority this computer does not trust (a private CA).
    case untrustedIssuer
    /// Valid, but for other names than the address's host.
    case otherName(host: String, certificateNames: [String])
    case expired
    case notYetValid
    /// The handshake failed for another reason (no common protocol or cipher, a broken certificate).
    case unknown

    /// From OpenSSL's verification result (curl's `CURLINFO_SSL_VERIFYRESULT`). curl checks the
    /// host name itself after a chain that verified: a failed verification with result 0 is that check.
    static func fromOpenSSL(result: Int, hostNameCheckFailed: Bool, host: String, names: [String]) -> TLSProblem {
        switch result {
        case 18: return .selfSigned  // X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT
        case 2, 19, 20, 21: return .untrustedIssuer  // unable to get issuer; self-signed in chain; issuer not local; leaf not verifiable
        case 10: return .expired  // X509_V_ERR_CERT_HAS_EXPIRED
        case 9: return .notYetValid  // X509_V_ERR_CERT_NOT_YET_VALID
        case 62: return .otherName(host: host, certificateNames: names)  // X509_V_ERR_HOSTNAME_MISMATCH
        case 0 where hostNameCheckFailed: return .otherName(host: host, certificateNames: names)
        default: return .unknown
        }
    }

    /// From GnuTLS's certificate status flags (curl's `CURLINFO_SSL_VERIFYRESULT` in its GnuTLS
    /// flavour, Debian's default). GnuTLS does not tell a self-signed certificate from one by an
    /// unknown authority: both are `untrustedIssuer`, whose sentence covers both.
    static func fromGnuTLS(status: UInt32, hostNameCheckFailed: Bool, host: String, names: [String]) -> TLSProblem {
        let signerNotFound: UInt32 = 1 << 6, signerNotCA: UInt32 = 1 << 7, notActivated: UInt32 = 1 << 9, expired: UInt32 = 1 << 10
        if status & expired != 0 { return .expired }
        if status & notActivated != 0 { return .notYetValid }
        if status & (signerNotFound | signerNotCA) != 0 { return .untrustedIssuer }
        if status == 0, hostNameCheckFailed { return .otherName(host: host, certificateNames: names) }
        return .unknown
    }

    /// The subject curl names when a certificate is for another host: "SSL: certificate subject name
    /// (other.example) does not match target host name '127.0.0.1'".
    static func subjectName(inCurlError text: String) -> String? {
        guard let open = text.range(of: "subject name ("), let close = text[open.upperBound...].firstIndex(of: ")") else { return nil }
        let name = String(text[open.upperBound..<close])
        return name.isEmpty ? nil : name
    }

    /// From GIO's `GTlsCertificateFlags` (the chat socket's handshake, through libsoup).
    static func fromGIO(flags: UInt32, selfSigned: Bool, host: String, names: [String]) -> TLSProblem {
        let unknownCA: UInt32 = 1 << 0, badIdentity: UInt32 = 1 << 1, notActivated: UInt32 = 1 << 2, expired: UInt32 = 1 << 3
        if flags & unknownCA != 0 { return selfSigned ? .selfSigned : .untrustedIssuer }
        if flags & expired != 0 { return .expired }
        if flags & notActivated != 0 { return .notYetValid }
        if flags & badIdentity != 0 { return .otherName(host: host, certificateNames: names) }
        return .unknown
    }

    /// The DNS names and IP addresses of a certificate's subject alternative names as curl's
    /// certificate info gives them: "DNS:example.com, DNS:www.example.com, IP Address:127.0.0.1".
    static func names(fromSubjectAltNames text: String) -> [String] {
        text.split(separator: ",").compactMap { part in
            let entry = part.trimmingCharacters(in: .whitespaces)
            for prefix in ["DNS:", "IP Address:", "IP:"] where entry.hasPrefix(prefix) {
                let name = entry.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
                return name.isEmpty ? nil : name
            }
            return nil
        }
    }
}
