#if os(Linux)
    public import Foundation

    /// How ``NativeTransport`` checks the servers it reaches over `https`.
    ///
    /// By default a server must present a certificate chain that the system trusts (OpenSSL's default paths,
    /// `/etc/ssl/certs` on Debian and Ubuntu) for the host name or IP address of the URL; TLS 1.2 is the lowest
    /// version, and ALPN offers `http/1.1`.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherHTTP
    ///
    /// var configuration = NativeTransport.Configuration()
    /// configuration.tls.additionalTrustedCertificates = [URL(fileURLWithPath: "dev-ca.pem")]
    /// let transport = NativeTransport(configuration: configuration)
    /// ```
    ///
    /// A refused certificate fails the request with ``HTTPError/Kind/transport(underlying:)`` carrying TetherIO's
    /// `IOError`, whose code says why (`certificateExpired`, `certificateHostMismatch`, `certificateUntrusted`,
    /// `certificatePinMismatch`, `certificateInvalid`; `tlsHandshakeFailed`, `tlsHandshakeTimeout`); such
    /// certificate failures are not retried. Settings that cannot be used (an unreadable file, a malformed pin) fail
    /// every https request with the code `tlsConfiguration`.
    public struct TLSOptions: Sendable, Hashable {
        /// PEM files of certificates to trust as well as the system's: a development CA, or a self-signed
        /// server certificate itself (`curl --cacert`).
        public var additionalTrustedCertificates: [URL] = []
        /// Pins of the server's public key: the base64 SHA-256 of the leaf certificate's SubjectPublicKeyInfo, as
        /// `curl --pinnedpubkey sha256//…` and HPKP write them (the `sha256//` prefix is optional). When not empty,
        /// the server's key must match one of them, on top of the usual verification.
        public var pinnedPublicKeys: [String] = []
        /// Whether any certificate is accepted, for any host (`curl -k`): for development against a server with a
        /// throwaway certificate only. Pins are still checked.
        public var allowsInsecure = false

        public init() {}
    }
#endif
