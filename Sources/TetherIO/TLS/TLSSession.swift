#if os(Linux)
    import COpenSSL
    import Glibc

    /// One connection's TLS state over memory buffers (OpenSSL memory BIOs): bytes from the peer go in with
    /// ``receive(_:)``, bytes for the peer come out of ``takeOutput()``, and the caller moves them over its socket
    /// however it likes. So the same session works on the non-blocking event loop (``Channel/startTLS(_:timeout:_:)``)
    /// and over a blocking socket on a thread (TetherServer).
    ///
    /// A client session sends the host as SNI (names only), checks the certificate chain against the context's
    /// trusted certificates and the host name (or IP address), and after the handshake compares the server's key
    /// with the context's pins.
    ///
    /// Not thread safe: use a session from one thread at a time.
    public final class TLSSession {
        /// What ``read(into:)`` found.
        public enum ReadResult: Equatable {
            /// This many bytes of application data were read into the buffer.
            case bytes(Int)
            /// No complete record yet: receive more bytes from the peer.
            case wantsMore
            /// The peer closed the TLS session (`close_notify`).
            case closed
        }

        let context: TLSContext
        private let ssl: OpaquePointer
        private let output: OpaquePointer
        /// The host the client connects to, for messages and verification.
        public let serverName: String?
        /// Whether the handshake has finished (and the pins, if any, matched).
        public private(set) var isHandshakeComplete = false

        init(context: TLSContext, serverName: String?) throws(IOError) {
            ERR_clear_error()
            guard let ssl = SSL_new(context.context) else {
                throw IOError(.tlsConfiguration, "OpenSSL could not make a TLS session: \(IOError.openSSLReason("?")).")
            }
            guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
                SSL_free(ssl)
                throw IOError(.tlsConfiguration, "OpenSSL could not make memory buffers.")
            }
            // Empty buffers mean "retry later", not the end of the stream.
            copenssl_bio_set_mem_eof_return(input, -1)
            copenssl_bio_set_mem_eof_return(output, -1)
            SSL_set_bio(ssl, input, output)  // The session owns both now.
            self.ssl = ssl
            self.output = output
            self.context = context
            self.serverName = serverName
            guard context.isClient else {
                SSL_set_accept_state(ssl)
                return
            }
            SSL_set_connect_state(ssl)
            guard let serverName else { return }
            let isAddress = Self.isIPAddress(serverName)
            if !isAddress { _ = copenssl_set_server_name(ssl, serverName) }
            if context.verifiesCertificates {
                let set =
                    isAddress
                    ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) : SSL_set1_host(ssl, serverName)
                guard set == 1 else {
                    throw IOError(.tlsConfiguration, "OpenSSL cannot check certificates for '\(serverName)'.")
                }
            }
        }

        deinit { SSL_free(ssl) }

        /// Hands bytes received from the peer to the session.
        public func receive(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            _ = BIO_write(SSL_get_rbio(ssl), base, Int32(bytes.count))
        }

        /// Advances the handshake with the bytes received so far; `true` once it has finished. Send
        /// ``takeOutput()`` after each call.
        ///
        /// - Throws: a certificate error (``IOError/Code/certificateExpired``, ``IOError/Code/certificateHostMismatch``,
        ///   ``IOError/Code/certificateUntrusted``, ``IOError/Code/certificateInvalid``,
        ///   ``IOError/Code/certificatePinMismatch``), or ``IOError/Code/tlsHandshakeFailed``.
        public func handshake() throws(IOError) -> Bool {
            if isHandshakeComplete { return true }
            ERR_clear_error()
            let result = SSL_do_handshake(ssl)
            if result == 1 {
                try checkPins()
                isHandshakeComplete = true
                return true
            }
            let error = SSL_get_error(ssl, result)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return false }
            if context.isClient && context.verifiesCertificates {
                let verification = SSL_get_verify_result(ssl)
                if verification != X509_V_OK {
                    ERR_clear_error()
                    throw IOError.certificate(result: verification, host: serverName ?? "the server")
                }
            }
            throw IOError(
                .tlsHandshakeFailed,
                "The TLS handshake with \(peerName) failed: \(IOError.openSSLReason("the peer ended it")).")
        }

        /// Reads decrypted application data into `buffer`.
        ///
        /// - Throws: ``IOError/Code/tlsFailure`` for a corrupt record or an alert from the peer.
        public func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> ReadResult {
            ERR_clear_error()
            let count = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
            if count > 0 { return .bytes(Int(count)) }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .wantsMore
            case SSL_ERROR_ZERO_RETURN: return .closed
            default:
                throw IOError(.tlsFailure, "TLS failed with \(peerName): \(IOError.openSSLReason("unknown error")).")
            }
        }

        /// Encrypts `bytes`; send ``takeOutput()`` next.
        public func write(_ bytes: UnsafeRawBufferPointer) throws(IOError) {
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                ERR_clear_error()
                let count = SSL_write(ssl, base + offset, Int32(min(bytes.count - offset, 1 << 30)))
                guard count > 0 else {
                    throw IOError(
                        .tlsFailure, "TLS failed with \(peerName): \(IOError.openSSLReason("cannot encrypt")).")
                }
                offset += Int(count)
            }
        }

        /// Whether bytes wait to be sent to the peer.
        public var hasOutput: Bool { BIO_ctrl_pending(output) > 0 }

        /// The bytes to send to the peer (handshake messages, records, alerts), taken out of the session.
        public func takeOutput() -> [UInt8] {
            let count = Int(BIO_ctrl_pending(output))
            guard count > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { BIO_read(output, $0.baseAddress, Int32(count)) }
            if Int(read) < count { bytes.removeLast(count - max(Int(read), 0)) }
            return bytes
        }

        /// Queues the `close_notify` alert (send ``takeOutput()`` next); the session reads and writes no more.
        public func close() {
            guard isHandshakeComplete else { return }
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            ERR_clear_error()
        }

        /// The ALPN protocol the peers agreed on, such as `http/1.1`; `nil` when none.
        public var applicationProtocol: String? {
            var data: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            SSL_get0_alpn_selected(ssl, &data, &length)
            guard let data, length > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
        }

        /// The protocol version in use, such as `TLSv1.3`.
        public var protocolVersion: String { String(cString: SSL_get_version(ssl)) }

        private var peerName: String { serverName ?? "the client" }

        private func checkPins() throws(IOError) {
            guard context.isClient, !context.pins.isEmpty else { return }
            let pin = SSL_get0_peer_certificate(ssl).flatMap(Self.publicKeyPin)
            guard let pin, context.pins.contains(pin) else {
                throw IOError(
                    .certificatePinMismatch,
                    "The public key of \(peerName) (sha256//\(pin ?? "?")) matches none of the pinned keys.")
            }
        }

        /// The base64 SHA-256 of a certificate's SubjectPublicKeyInfo (DER), as pins are written.
        static func publicKeyPin(of certificate: OpaquePointer) -> String? {
            guard let key = X509_get_X509_PUBKEY(certificate) else { return nil }
            let length = i2d_X509_PUBKEY(key, nil)
            guard length > 0 else { return nil }
            var der = [UInt8](repeating: 0, count: Int(length))
            let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return i2d_X509_PUBKEY(key, &cursor)
            }
            guard written == length else { return nil }
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var digestLength: UInt32 = 0
            guard EVP_Digest(der, der.count, &digest, &digestLength, EVP_sha256(), nil) == 1, digestLength == 32
            else { return nil }
            var text = [UInt8](repeating: 0, count: 48)
            let count = EVP_EncodeBlock(&text, digest, 32)
            return String(decoding: text.prefix(Int(count)), as: UTF8.self)
        }

        private static func isIPAddress(_ host: String) -> Bool {
            var v4 = in_addr()
            var v6 = in6_addr()
            return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
        }
    }
#endif
