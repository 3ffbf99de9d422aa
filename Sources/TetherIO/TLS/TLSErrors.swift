#if os(Linux)
    import COpenSSL
#endif

extension IOError.Code {
    /// The server's certificate has expired, or is not valid yet.
    public static let certificateExpired = IOError.Code(rawValue: "certificateExpired")
    /// The server's certificate is for another host name or address.
    public static let certificateHostMismatch = IOError.Code(rawValue: "certificateHostMismatch")
    /// The server's certificate was not issued by a trusted authority (unknown issuer, self-signed).
    public static let certificateUntrusted = IOError.Code(rawValue: "certificateUntrusted")
    /// The server's public key matches none of the pinned keys.
    public static let certificatePinMismatch = IOError.Code(rawValue: "certificatePinMismatch")
    /// The server's certificate failed verification for another reason (revoked, bad signature, wrong use).
    public static let certificateInvalid = IOError.Code(rawValue: "certificateInvalid")
    /// The TLS handshake failed: no common version or cipher, the peer does not speak TLS, or it closed.
    public static let tlsHandshakeFailed = IOError.Code(rawValue: "tlsHandshakeFailed")
    /// The TLS handshake did not finish within its timeout.
    public static let tlsHandshakeTimeout = IOError.Code(rawValue: "tlsHandshakeTimeout")
    /// A TLS error after the handshake (a corrupt record, an alert from the peer).
    public static let tlsFailure = IOError.Code(rawValue: "tlsFailure")
    /// The TLS settings cannot be used: an unreadable or invalid certificate, key or pin.
    public static let tlsConfiguration = IOError.Code(rawValue: "tlsConfiguration")
}

extension IOError {
    /// Whether the server's certificate was refused (expired, wrong host, untrusted, pin mismatch, invalid):
    /// trying again will not help.
    public var isCertificateFailure: Bool {
        [
            .certificateExpired, .certificateHostMismatch, .certificateUntrusted, .certificatePinMismatch,
            .certificateInvalid,
        ].contains(code)
    }

    /// Whether the error comes from TLS (the handshake, the certificate, the settings, a record).
    public var isTLS: Bool {
        isCertificateFailure
            || [.tlsHandshakeFailed, .tlsHandshakeTimeout, .tlsFailure, .tlsConfiguration].contains(code)
    }
}

#if os(Linux)
    extension IOError {
        /// The error for an X509 verification result (`X509_V_ERR_*`) about the certificate of `host`.
        static func certificate(result: Int, host: String) -> IOError {
            let reason = String(cString: X509_verify_cert_error_string(result))
            let code: Code
            switch Int32(result) {
            case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
                code = .certificateExpired
            case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
                code = .certificateHostMismatch
            case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
                X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
                X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED:
                code = .certificateUntrusted
            default:
                code = .certificateInvalid
            }
            let what =
                switch code {
                case .certificateExpired: "has expired or is not valid yet"
                case .certificateHostMismatch: "is not valid for \(host)"
                case .certificateUntrusted: "is not trusted"
                default: "was refused"
                }
            return IOError(code, "The certificate of \(host) \(what) (\(reason)).")
        }

        /// The first error on OpenSSL's queue of this thread as text (the queue is emptied), or `fallback`.
        static func openSSLReason(_ fallback: String) -> String {
            var reason: String?
            while true {
                let error = ERR_get_error()
                if error == 0 { break }
                if reason == nil {
                    var text = [CChar](repeating: 0, count: 256)
                    ERR_error_string_n(error, &text, text.count)
                    reason = String(
                        decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            }
            return reason ?? fallback
        }
    }
#endif
