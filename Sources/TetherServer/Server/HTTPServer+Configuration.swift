public import TetherHTTP1

extension HTTPServer {
    /// Where a server listens and the limits it enforces.
    ///
    /// The defaults suit a local development server: loopback only, a free port, 10 MB bodies.
    public struct Configuration: Sendable {
        /// The address to bind: `127.0.0.1` (default), `::1`, `0.0.0.0`, `::` or a name such as `localhost`.
        public var host: String
        /// The port; `0` picks a free one, which ``HTTPServer/start()`` returns.
        public var port: Int
        /// Request size limits; a request over one is answered with the limit's status (431, 413, 414, 400) and
        /// a JSON error, then the connection closes.
        public var limits: HTTPRequestParser.Limits
        /// How long a request may take to arrive once its first byte has; then `408` and close.
        public var headerTimeout: Duration
        /// How long a kept-alive connection may wait for its next request before it is closed silently. Also
        /// bounds a blocked send to a client that stops reading.
        public var idleTimeout: Duration
        /// The most connections open at once; more are answered `503` with a JSON error and closed.
        public var maximumConnections: Int
        /// How long ``HTTPServer/stop()`` lets in-flight requests finish before it closes their connections.
        public var shutdownGracePeriod: Duration
        /// Receives one access-log line per request, `METHOD target status bytes µs`, with ` fault=...` appended
        /// when a fault was injected; called on connection threads, concurrently. `nil` (default) logs nothing.
        public var accessLog: (@Sendable (String) -> Void)?
        /// Random faults to inject; ``FaultConfiguration/none`` by default.
        public var faults: FaultConfiguration
        /// How many bytes of a streamed body (``/TetherHTTP1/HTTPResponse/Body/stream(_:)``) may wait for a client that
        /// reads slowly: while more than this is pulled from the stream and not yet handed to the socket, the server
        /// stops pulling. 1 MiB by default (at least one chunk is always taken). What the stream buffers itself is
        /// up to its producer: `AsyncStream(unfolding:)`, or a `bufferingPolicy`, keeps a producer from running
        /// ahead of the pulls.
        public var maximumPendingStreamBytes: Int
        /// The certificate and key to serve HTTPS with (TLS 1.2 or later, ALPN `http/1.1`, through TetherIO's
        /// OpenSSL layer); `nil` (default) serves plain HTTP. Checked by ``HTTPServer/start()``. Each connection's
        /// handshake must finish within ``headerTimeout``; over ``maximumConnections`` an HTTPS connection is
        /// closed without the 503. Linux only.
        public var tls: TLSIdentity?

        public init(
            host: String = "127.0.0.1", port: Int = 0, limits: HTTPRequestParser.Limits = .init(),
            headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
            maximumConnections: Int = 512, shutdownGracePeriod: Duration = .seconds(5),
            accessLog: (@Sendable (String) -> Void)? = nil, faults: FaultConfiguration = .none,
            maximumPendingStreamBytes: Int = 1 << 20
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.headerTimeout = headerTimeout
            self.idleTimeout = idleTimeout
            self.maximumConnections = maximumConnections
            self.shutdownGracePeriod = shutdownGracePeriod
            self.accessLog = accessLog
            self.faults = faults
            self.maximumPendingStreamBytes = maximumPendingStreamBytes
        }
    }
}

extension HTTPServer {
    /// The certificate chain and private key an HTTPS server presents, as PEM files.
    public struct TLSIdentity: Sendable, Hashable {
        /// The certificate, followed by any intermediate certificates.
        public var certificateFile: String
        /// The private key of the certificate (unencrypted).
        public var privateKeyFile: String

        public init(certificateFile: String, privateKeyFile: String) {
            self.certificateFile = certificateFile
            self.privateKeyFile = privateKeyFile
        }
    }
}
