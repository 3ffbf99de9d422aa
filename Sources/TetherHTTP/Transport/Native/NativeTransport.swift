#if os(Linux)
    import Foundation
    import TetherSync
    import TetherIO

    /// A transport of Tether's own: HTTP/1.1 over non-blocking sockets on a TetherIO ``/TetherIO/EventLoop``, with a
    /// pool of keep-alive connections per origin.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherHTTP
    ///
    /// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!) {
    ///     $0.transport = NativeTransport()
    /// }
    /// ```
    ///
    /// What it does for each request:
    /// - Takes the most recently used idle connection to the origin (scheme, host, port), or opens a new one while
    ///   the origin has fewer than ``Configuration/maximumConnectionsPerHost``, or waits for one to come free. Idle
    ///   connections close after ``Configuration/idleTimeout``.
    /// - Looks the host up with `getaddrinfo` off the loop and races IPv4 and IPv6 (TetherIO's
    ///   `ClientBootstrap`).
    /// - Writes the request with `Host` first and `Accept-Encoding: gzip, deflate` when the request names no
    ///   encoding, reads the response with TetherHTTP1's `HTTPResponseParser` (1xx skipped, chunked, until close,
    ///   header lines kept as received), and decodes gzip and deflate bodies; other codings arrive undecoded.
    /// - A reused connection that turns out closed before any byte of the response arrived is retried once on a new
    ///   connection when the request is idempotent (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) or none of it was sent.
    /// - Deadlines with millisecond precision: connecting (``Configuration/connectTimeout``), the first byte
    ///   (``Configuration/firstByteTimeout``) and the whole request (``TransportRequest/timeout``). Cancelling the
    ///   calling task closes the connection at once.
    /// - Reports ``TransferMetrics`` on each ``TransportResponse`` and progress as bytes arrive; stops reading a
    ///   body over ``TransportRequest/maximumResponseSize``.
    ///
    /// - `https` URLs go over TLS (TetherIO's OpenSSL layer): SNI, the certificate verified against the system's
    ///   trust store and the host name, TLS 1.2 or later, ALPN `http/1.1`, with the handshake under
    ///   ``Configuration/tlsHandshakeTimeout``; ``Configuration/tls`` adds trusted certificates and pins, or turns
    ///   verification off. The handshake's duration is ``TransferMetrics/tls``.
    ///
    /// Thread safety: one transport serves any number of concurrent requests; its pools live on the event loop.
    public final class NativeTransport: HTTPTransport {
        /// How the transport connects and pools.
        public struct Configuration: Sendable {
            /// Connections per origin at most; more requests wait for one.
            public var maximumConnectionsPerHost = 6
            /// How long an idle connection is kept.
            public var idleTimeout: Duration = .seconds(60)
            /// The longest look-up and connection together.
            public var connectTimeout: Duration = .seconds(10)
            /// The longest wait from the request sent to the response's first byte; `nil` for none (the request's
            /// own timeout still applies).
            public var firstByteTimeout: Duration?
            /// Whether `Accept-Encoding: gzip, deflate` is sent and such bodies decoded.
            public var decodesContent = true
            /// The most bytes of response header fields.
            public var maximumHeaderBytes = 64 * 1024
            /// How `https` servers are checked: extra trusted certificates, pins, or none at all.
            public var tls = TLSOptions()
            /// The longest TLS handshake of a new `https` connection (after the TCP connection is made).
            public var tlsHandshakeTimeout: Duration = .seconds(10)

            public init() {}
        }

        public let configuration: Configuration
        let loop: EventLoop
        let pools: PoolSet
        /// The client TLS settings, made from ``Configuration/tls`` on the first `https` request.
        private let tlsContext = Locked<Result<TLSContext, IOError>?>(nil)

        /// A transport on TetherIO's shared event loop.
        public init(configuration: Configuration = Configuration()) {
            self.configuration = configuration
            loop = EventLoop.shared
            pools = PoolSet(loop: loop, configuration: configuration)
        }

        /// A transport with `maximumConnectionsPerHost` and the other settings at their defaults.
        public convenience init(maximumConnectionsPerHost: Int) {
            var configuration = Configuration()
            configuration.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.init(configuration: configuration)
        }

        deinit {
            let pools = self.pools
            loop.execute { pools.closeIdle() }
        }

        public func send(
            _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?
        ) async throws -> TransportResponse {
            try Task.checkCancellation()
            // Made before the exchange, whose clock starts with it: the first https request reads the trust store.
            let tls = request.url.scheme?.lowercased() == "https" ? try makeTLSContext() : nil
            let exchange = try NativeExchange(request: request, progress: progress, configuration: configuration)
            let pools = self.pools
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    loop.execute { pools.start(exchange, tls: tls, continuation) }
                }
            } onCancel: {
                loop.execute { exchange.fail(CancellationError()) }
            }
        }

        /// The TLS context of ``Configuration/tls``, made once (it reads the system's trust store).
        private func makeTLSContext() throws(IOError) -> TLSContext {
            let result = tlsContext.withLock { context in
                if let context { return context }
                var settings = TLSClientConfiguration()
                settings.additionalTrustedCertificateFiles = configuration.tls.additionalTrustedCertificates.map(\.path)
                settings.pinnedPublicKeys = configuration.tls.pinnedPublicKeys
                settings.verifiesCertificates = !configuration.tls.allowsInsecure
                let made = Result { () throws(IOError) -> TLSContext in try TLSContext(client: settings) }
                context = made
                return made
            }
            return try result.get()
        }

        /// The number of open connections (idle or busy) per origin, such as `["127.0.0.1:8080": 2]` (and
        /// `"https://127.0.0.1:8443"` for https): for tests and diagnostics.
        public func openConnections() async -> [String: Int] {
            let pools = self.pools
            return await withCheckedContinuation { continuation in
                loop.execute { continuation.resume(returning: pools.openConnections()) }
            }
        }
    }
#endif
