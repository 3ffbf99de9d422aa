/// How a client checks the server it talks TLS to: the trusted certificates, pins, or no verification at all.
///
/// The defaults are what a browser does: the system's trust store (OpenSSL's default paths, `/etc/ssl/certs` on
/// Debian and Ubuntu), the host name checked against the certificate, TLS 1.2 or later, ALPN `http/1.1`.
///
/// ```swift
/// import TetherIO
///
/// var tls = TLSClientConfiguration()
/// tls.additionalTrustedCertificateFiles = ["/path/to/dev-ca.pem"]
/// let context = try TLSContext(client: tls)
/// ```
public struct TLSClientConfiguration: Sendable, Hashable {
    /// PEM files whose certificates are trusted as well as the system's (a development CA, a self-signed server).
    public var additionalTrustedCertificateFiles: [String] = []
    /// PEM text of more certificates to trust, as for ``additionalTrustedCertificateFiles``.
    public var additionalTrustedCertificates: [[UInt8]] = []
    /// Pins of the server's public key: the base64 SHA-256 of the leaf certificate's SubjectPublicKeyInfo, as
    /// `curl --pinnedpubkey sha256//…` and HPKP write them (the `sha256//` prefix is optional). When not empty, the
    /// server's key must match one of them, in addition to the usual verification (or instead of it when
    /// ``verifiesCertificates`` is off).
    public var pinnedPublicKeys: [String] = []
    /// Whether the certificate chain and the host name are verified. Off is `curl -k`: for development only.
    public var verifiesCertificates = true
    /// The ALPN protocols offered, most preferred first.
    public var applicationProtocols = ["http/1.1"]

    public init() {}
}
