#if os(Linux)
    import Foundation
    import TetherHTTP1
    import TetherIO

    /// One request on its way through ``NativeTransport``: the bytes to send, where it is (waiting for a
    /// connection, connecting, on a connection), the response read so far, its timers and metrics, and the
    /// continuation to resume once.
    ///
    /// Confined to the transport's event loop after ``init(request:progress:configuration:)``.
    final class NativeExchange: @unchecked Sendable {
        let request: TransportRequest
        let progress: (@Sendable (TransferProgress) -> Void)?
        let configuration: NativeTransport.Configuration
        /// `host:port` (`https://host:port` for https), the pool's key.
        let origin: String
        /// Whether the URL is `https`: the connection speaks TLS.
        let isTLS: Bool
        let host: String
        let port: Int
        /// The serialized request.
        let bytes: [UInt8]
        let method: HTTPMethod
        /// Whether sending it twice is harmless (RFC 9110 §9.2.2).
        let isIdempotent: Bool
        let started = ContinuousClock.now

        private var continuation: CheckedContinuation<TransportResponse, any Error>?
        /// Set once the outcome is decided; later events are ignored.
        private(set) var finished = false
        private var earlyError: (any Error)?

        // Where it is.
        var connection: HTTPConnection?
        var waitingIn: ConnectionPool?
        var connecting: ConnectAttempt?
        /// The new connection whose TLS handshake runs for it.
        var handshaking: Channel?
        /// Whether it was already retried on a new connection.
        var retried = false

        // The response.
        private(set) var head: HTTPResponseHead?
        private var body: [UInt8] = []
        var metrics = TransferMetrics()
        private var transferProgress = TransferProgress()
        private var loop: EventLoop?
        private var deadlineTimer: EventLoop.Scheduled?
        private var firstByteTimer: EventLoop.Scheduled?

        init(
            request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?,
            configuration: NativeTransport.Configuration
        ) throws {
            self.request = request
            self.progress = progress
            self.configuration = configuration
            guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true),
                let scheme = components.scheme?.lowercased(), var host = components.host, !host.isEmpty
            else {
                throw HTTPError(
                    .invalidRequest(reason: "'\(request.url)' has no host"),
                    request: RequestSummary(method: .get, url: ""))
            }
            guard scheme == "http" || scheme == "https" else {
                throw HTTPError(
                    .invalidRequest(reason: "NativeTransport supports http and https only, not \(scheme)"),
                    request: RequestSummary(method: .get, url: ""))
            }
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            isTLS = scheme == "https"
            let defaultPort = isTLS ? 443 : 80
            let port = components.port ?? defaultPort
            self.host = host
            self.port = port
            let authority = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
            origin = isTLS ? "https://" + authority : authority
            method = request.method
            isIdempotent = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(request.method.rawValue)

            var target = components.percentEncodedPath
            if target.isEmpty { target = "/" }
            if let query = components.percentEncodedQuery { target += "?" + query }
            var headers = HTTPHeaders()
            headers.add("Host", port == defaultPort ? (host.contains(":") ? "[\(host)]" : host) : authority)
            for (name, value) in request.headers where name.lowercased() != "host" {
                headers.add(name, value)
            }
            if configuration.decodesContent && !headers.contains("Accept-Encoding") {
                headers.add("Accept-Encoding", ContentDecoding.acceptEncoding)
            }
            let body = request.body.map { [UInt8]($0) } ?? []
            bytes = HTTPRequestSerializer.serialize(
                HTTPRequest(method: request.method, target: target, headers: headers, body: body))
            transferProgress.totalBytesToSend = request.body?.count
        }

        /// Takes the continuation and arms the whole-request deadline; false when the exchange already ended
        /// (cancelled before it reached the loop), after resuming the continuation.
        func begin(_ continuation: CheckedContinuation<TransportResponse, any Error>, loop: EventLoop) -> Bool {
            if finished {
                continuation.resume(throwing: earlyError ?? CancellationError())
                return false
            }
            self.continuation = continuation
            self.loop = loop
            deadlineTimer = loop.schedule(at: started + request.timeout) { [self] in fail(DeadlineExceeded()) }
            return true
        }

        /// The request went to a connection: the first-byte deadline starts.
        func requestWritten(on loop: EventLoop, flushed: Bool) {
            if flushed { metrics.requestSent = .now - started }
            if let limit = configuration.firstByteTimeout {
                firstByteTimer = loop.schedule(in: limit) { [self] in fail(DeadlineExceeded()) }
            }
        }

        /// The first byte of the response arrived.
        func firstByte(loop: EventLoop) {
            guard metrics.firstByte == nil else { return }
            metrics.firstByte = .now - started
            if metrics.requestSent == nil { metrics.requestSent = metrics.firstByte }
            if let firstByteTimer { loop.cancel(firstByteTimer) }
            firstByteTimer = nil
        }

        /// Whether any byte of a response arrived.
        var receivedAny: Bool { metrics.firstByte != nil }

        // MARK: - The response

        /// Takes the head; throws when its `Content-Length` is already over the size limit.
        func receive(head: HTTPResponseHead) throws {
            self.head = head
            let length = head.headers["Content-Length"].flatMap { Int($0) }
            transferProgress.totalBytesExpected = length
            if let length, length > request.maximumResponseSize, head.headers["Content-Encoding"] == nil {
                throw tooLarge()
            }
            transferProgress.bytesSent = request.body?.count ?? 0
            progress?(transferProgress)
        }

        func receive(body bytes: [UInt8]) throws {
            if body.count + bytes.count > request.maximumResponseSize { throw tooLarge() }
            body.append(contentsOf: bytes)
            transferProgress.bytesReceived = body.count
            progress?(transferProgress)
        }

        /// The error for a body over the size limit, as the client expects it.
        func tooLarge() -> HTTPError {
            HTTPError(
                .responseTooLarge(limit: request.maximumResponseSize), request: RequestSummary(method: .get, url: ""))
        }

        /// The response ended: decodes the body and resumes the caller.
        func complete(loop: EventLoop) {
            guard !finished, let head else { return }
            var data = body
            if configuration.decodesContent, method != .head,
                let coding = ContentDecoding.coding(for: head.headers["Content-Encoding"])
            {
                do {
                    data = try ContentDecoding.decode(body, coding: coding, limit: request.maximumResponseSize)
                } catch {
                    fail(ContentDecoding.isTooLarge(error) ? tooLarge() : error)
                    return
                }
            }
            metrics.complete = .now - started
            var response = TransportResponse(
                status: head.status.reason.isEmpty ? HTTPStatus(code: head.status.code) : head.status,
                headers: head.headers, body: Data(data), url: request.url)
            response.metrics = metrics
            finish(loop: loop)
            continuation?.resume(returning: response)
            continuation = nil
        }

        /// Ends the exchange with `error` wherever it is: leaves the pool's queue, abandons its connection attempt,
        /// closes its connection. Ignored once the exchange has ended.
        func fail(_ error: any Error) {
            guard !finished else { return }
            finished = true
            if let loop {
                if let firstByteTimer { loop.cancel(firstByteTimer) }
                if let deadlineTimer { loop.cancel(deadlineTimer) }
            }
            firstByteTimer = nil
            deadlineTimer = nil
            if let waitingIn {
                self.waitingIn = nil
                waitingIn.removeWaiter(self)
            }
            if let connecting {
                self.connecting = nil
                connecting.cancel()
            }
            if let handshaking {
                self.handshaking = nil
                handshaking.close(IOError(.closedLocally, "The request ended."))
            }
            if let connection {
                self.connection = nil
                connection.abandon(self)
            }
            guard let continuation else {
                earlyError = error
                return
            }
            self.continuation = nil
            continuation.resume(throwing: error)
        }

        private func finish(loop: EventLoop) {
            finished = true
            if let deadlineTimer { loop.cancel(deadlineTimer) }
            if let firstByteTimer { loop.cancel(firstByteTimer) }
            deadlineTimer = nil
            firstByteTimer = nil
        }

        /// Forgets the response read so far, before a retry on a new connection.
        func resetForRetry() {
            head = nil
            body = []
            metrics = TransferMetrics()
            retried = true
        }
    }
#endif
