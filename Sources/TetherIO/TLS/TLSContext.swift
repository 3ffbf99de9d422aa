#if os(Linux)
    import COpenSSL

    /// OpenSSL's shared TLS settings (an `SSL_CTX`): the role, the trusted certificates or the server's identity,
    /// TLS 1.2 at least, ALPN. Made once and used for many connections, each a ``TLSSession``.
    ///
    /// ```swift
    /// import TetherIO
    ///
    /// let context = try TLSContext(client: TLSClientConfiguration())
    /// let session = try context.makeSession(serverName: "example.com")
    /// ```
    ///
    /// Thread safety: immutable once made; sessions may be made from any thread.
    public final class TLSContext: @unchecked Sendable {
        let context: OpaquePointer
        /// Whether this is a client's context.
        public let isClient: Bool
        /// Whether the peer's certificate is verified (clients; servers never ask for one).
        let verifiesCertificates: Bool
        /// The accepted pins, base64 SHA-256 digests without the `sha256//` prefix.
        let pins: [String]

        /// A client context: the system trust store plus ``TLSClientConfiguration/additionalTrustedCertificateFiles``
        /// and ``TLSClientConfiguration/additionalTrustedCertificates``, peer verification unless turned off, ALPN.
        ///
        /// - Throws: ``IOError/Code/tlsConfiguration`` for a file or PEM text with no usable certificate, or a pin
        ///   that is not the base64 of 32 bytes.
        public init(client configuration: TLSClientConfiguration) throws(IOError) {
            ERR_clear_error()
            guard let context = SSL_CTX_new(TLS_client_method()) else {
                throw IOError(.tlsConfiguration, "OpenSSL could not make a TLS context.")
            }
            self.context = context
            isClient = true
            verifiesCertificates = configuration.verifiesCertificates
            var pins: [String] = []
            for pin in configuration.pinnedPublicKeys {
                let digest = pin.hasPrefix("sha256//") ? String(pin.dropFirst(8)) : pin
                guard digest.utf8.count == 44, digest.hasSuffix("="), !digest.hasSuffix("==") else {
                    throw IOError(.tlsConfiguration, "'\(pin)' is not a base64 SHA-256 pin (sha256//…, 44 characters).")
                }
                pins.append(digest)
            }
            self.pins = pins
            try Self.configureCommon(context, protocols: configuration.applicationProtocols)
            if configuration.verifiesCertificates {
                SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
                SSL_CTX_set_default_verify_paths(context)
                for file in configuration.additionalTrustedCertificateFiles {
                    guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
                        throw IOError(
                            .tlsConfiguration,
                            "Cannot read trusted certificates from \(file): "
                                + IOError.openSSLReason("no PEM certificate in it") + ".")
                    }
                }
                for pem in configuration.additionalTrustedCertificates {
                    try Self.trust(pem: pem, in: context)
                }
            } else {
                SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
            }
        }

        /// A server context with the certificate chain and private key in PEM files.
        ///
        /// - Throws: ``IOError/Code/tlsConfiguration`` when a file cannot be read, holds no certificate or key, or
        ///   the key does not belong to the certificate.
        public init(serverCertificateFile certificateFile: String, privateKeyFile: String) throws(IOError) {
            ERR_clear_error()
            guard let context = SSL_CTX_new(TLS_server_method()) else {
                throw IOError(.tlsConfiguration, "OpenSSL could not make a TLS context.")
            }
            self.context = context
            isClient = false
            verifiesCertificates = false
            pins = []
            try Self.configureCommon(context, protocols: [])
            guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1 else {
                throw IOError(
                    .tlsConfiguration,
                    "Cannot use the certificate in \(certificateFile): "
                        + IOError.openSSLReason("no PEM certificate in it") + ".")
            }
            guard SSL_CTX_use_PrivateKey_file(context, privateKeyFile, SSL_FILETYPE_PEM) == 1 else {
                if ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH {
                    ERR_clear_error()
                    throw IOError(
                        .tlsConfiguration,
                        "The private key in \(privateKeyFile) does not match the certificate in \(certificateFile).")
                }
                throw IOError(
                    .tlsConfiguration,
                    "Cannot use the private key in \(privateKeyFile): " + IOError.openSSLReason("no PEM key in it")
                        + ".")
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                throw IOError(
                    .tlsConfiguration,
                    "The private key in \(privateKeyFile) does not match the certificate in \(certificateFile).")
            }
            SSL_CTX_set_alpn_select_cb(context, selectHTTP11, nil)
        }

        deinit { SSL_CTX_free(context) }

        /// A new connection's TLS state. A client passes the host it connects to: a name is sent as SNI and checked
        /// against the certificate, an IP address is checked against the certificate's addresses.
        public func makeSession(serverName: String? = nil) throws(IOError) -> TLSSession {
            try TLSSession(context: self, serverName: serverName)
        }

        private static func configureCommon(_ context: OpaquePointer, protocols: [String]) throws(IOError) {
            guard copenssl_ctx_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
                throw IOError(.tlsConfiguration, "OpenSSL refused TLS 1.2 as the lowest version.")
            }
            var wire: [UInt8] = []
            for name in protocols where !name.isEmpty && name.utf8.count < 256 {
                wire.append(UInt8(name.utf8.count))
                wire.append(contentsOf: name.utf8)
            }
            if !wire.isEmpty {
                // Returns 0 on success, unlike the rest of OpenSSL.
                guard SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count)) == 0 else {
                    throw IOError(.tlsConfiguration, "OpenSSL refused the ALPN protocols \(protocols).")
                }
            }
        }

        private static func trust(pem: [UInt8], in context: OpaquePointer) throws(IOError) {
            let store = SSL_CTX_get_cert_store(context)
            var added = 0
            pem.withUnsafeBytes { bytes in
                guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return }
                defer { BIO_free(bio) }
                while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                    if X509_STORE_add_cert(store, certificate) == 1 { added += 1 }
                    X509_free(certificate)
                }
            }
            ERR_clear_error()  // The end of the PEM text leaves an error on the queue.
            guard added > 0 else {
                throw IOError(.tlsConfiguration, "The trusted certificate text holds no PEM certificate.")
            }
        }
    }

    /// The server's ALPN choice: `http/1.1` when the client offers it, else no protocol.
    private func selectHTTP11(
        _ ssl: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
        _ outLength: UnsafeMutablePointer<UInt8>?, _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32,
        _ argument: UnsafeMutableRawPointer?
    ) -> Int32 {
        guard let offered, let out, let outLength else { return SSL_TLSEXT_ERR_NOACK }
        var index = 0
        while index < Int(offeredLength) {
            let length = Int(offered[index])
            let start = index + 1
            if start + length <= Int(offeredLength), length == 8,
                (0..<8).allSatisfy({ offered[start + $0] == Array("http/1.1".utf8)[$0] })
            {
                out.pointee = offered + start
                outLength.pointee = 8
                return SSL_TLSEXT_ERR_OK
            }
            index = start + length
        }
        return SSL_TLSEXT_ERR_NOACK
    }
#endif
