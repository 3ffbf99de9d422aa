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
        /// How long a request may take to arrive once its first byte has; then `408` and close. On Linux a new
        /// connection also has this long to send its first byte (or finish its TLS handshake), else it is closed
        /// silently.
        public var headerTimeout: Duration
        /// How long a kept-alive connection may wait for its next request before it is closed silently. Also
        /// bounds a blocked send to a client that stops reading. (A connection that has sent nothing yet has the
        /// ``headerTimeout`` for its first request, and is closed silently after it.)
        public var idleTimeout: Duration
        /// The most connections open at once. `0` (the default) derives it from the process's open-file limit,
        /// which ``HTTPServer/start()`` raises to its hard limit: that limit less 256 descriptors kept for files.
        ///
        /// A connection over the limit is answered `503` with a JSON error and closed, unless
        /// ``closesIdleConnectionsAtLimit`` lets it in by closing an idle one.
        public var maximumConnections: Int
        /// At ``maximumConnections``, whether a new connection is still accepted and the connection idle the longest
        /// (a kept-alive one between requests, or one that has sent nothing) is closed to make room; only when every
        /// connection has a request in progress is the new one answered `503`. `false` (the default): every
        /// connection over the limit gets the `503`. `tether serve` turns it on, so idle clients never lock others
        /// out. Linux only (elsewhere the limit always answers `503`).
        public var closesIdleConnectionsAtLimit: Bool
        /// How long ``HTTPServer/stop()`` lets in-flight requests finish before it closes their connections.
        public var shutdownGracePeriod: Duration
        /// Receives one access-log line per request, `METHOD target status bytes µs`, with ` fault=...` appended
        /// when a fault was injected; called on the server's threads (on Linux, its event loops), concurrently, so
        /// it must be quick and must not block. `nil` (default) logs nothing.
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
            maximumConnections: Int = 0, shutdownGracePeriod: Duration = .seconds(5),
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
            closesIdleConnectionsAtLimit = false
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
