#if os(Linux)
    import TetherHTTP1
    import TetherIO

    /// One keep-alive connection of a ``ConnectionPool``: writes an exchange's request, feeds the response to an
    /// `HTTPResponseParser`, and hands itself back to the pool (or closes) when the response ends. One exchange at
    /// a time, no pipelining. Confined to the event loop.
    final class HTTPConnection: ChannelHandler {
        let channel: Channel
        private let pool: ConnectionPool
        private var parser = HTTPResponseParser()
        private var exchange: NativeExchange?
        private var reused = false
        private var writtenBefore = 0
        private var readBefore = 0
        private var idleTimer: EventLoop.Scheduled?

        init(channel: Channel, pool: ConnectionPool) {
            self.channel = channel
            self.pool = pool
        }

        /// Sends `exchange`'s request on this connection.
        func run(_ exchange: NativeExchange, reused: Bool) {
            if let idleTimer { channel.eventLoop.cancel(idleTimer) }
            idleTimer = nil
            self.exchange = exchange
            self.reused = reused
            exchange.connection = self
            exchange.metrics.reusedConnection = reused
            exchange.metrics.remoteAddress = channel.remoteAddress.description
            parser = HTTPResponseParser(
                limits: .init(
                    maximumHeaderBytes: exchange.configuration.maximumHeaderBytes,
                    maximumBodyBytes: exchange.request.maximumResponseSize))
            parser.expectResponse(to: exchange.method)
            writtenBefore = channel.bytesWritten
            readBefore = channel.bytesRead
            guard channel.isActive else {
                // Cannot happen (a closed connection leaves the pool at once), but nothing was sent: start again.
                self.exchange = nil
                exchange.connection = nil
                pool.retry(exchange)
                return
            }
            channel.write(exchange.bytes)
            // The write may have found the connection dead and closed it (channelInactive has run then).
            if self.exchange === exchange {
                exchange.requestWritten(on: channel.eventLoop, flushed: channel.isFlushed)
            }
        }

        /// Waits idle for the next exchange, closing after `timeout`.
        func idle(for timeout: Duration) {
            idleTimer = channel.eventLoop.schedule(in: timeout) { [self] in
                idleTimer = nil
                close()
            }
        }

        func close() {
            channel.close()
        }

        /// `exchange` failed (cancelled, a deadline): the connection closes, as its state is unknown.
        func abandon(_ exchange: NativeExchange) {
            guard self.exchange === exchange else { return }
            self.exchange = nil
            channel.close(IOError(.closedLocally, "The request ended."))
        }

        // MARK: - ChannelHandler

        func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) {
            guard let exchange else {
                // Bytes while idle: the server is not speaking HTTP as expected.
                channel.close()
                return
            }
            exchange.firstByte(loop: channel.eventLoop)
            parser.append(bytes)
            do {
                while self.exchange === exchange, let event = try parser.next() {
                    try handle(event, exchange)
                }
            } catch {
                self.exchange = nil
                exchange.connection = nil
                if let error = error as? HTTP1Error, error.status == .payloadTooLarge {
                    exchange.fail(exchange.tooLarge())
                } else {
                    exchange.fail(error)
                }
                channel.close(IOError(.closedLocally, "The response could not be read."))
            }
        }

        func channelInactive(_ channel: Channel, error: IOError?) {
            if let idleTimer { channel.eventLoop.cancel(idleTimer) }
            idleTimer = nil
            if exchange != nil {
                connectionEnded(error: error)
            } else {
                pool.closed(self)
            }
        }

        // MARK: - The exchange

        private func handle(_ event: HTTPResponseParser.Event, _ exchange: NativeExchange) throws {
            switch event {
            case .informational:
                break
            case .head(let head):
                try exchange.receive(head: head)
            case .body(let bytes):
                try exchange.receive(body: bytes)
            case .end:
                self.exchange = nil
                exchange.connection = nil
                record(exchange)
                let reusable = parser.isReusable && channel.isActive
                exchange.complete(loop: channel.eventLoop)
                if reusable {
                    pool.release(self)
                } else {
                    channel.close()
                }
            }
        }

        private func record(_ exchange: NativeExchange) {
            exchange.metrics.bytesSent += channel.bytesWritten - writtenBefore
            exchange.metrics.bytesReceived += channel.bytesRead - readBefore
        }

        /// The connection ended under an exchange: a body delimited by the close is complete; a reused connection
        /// that died before answering is retried when that is safe; anything else fails the exchange.
        private func connectionEnded(error: IOError?) {
            guard let exchange else { return }
            self.exchange = nil
            exchange.connection = nil
            record(exchange)
            if error == nil, (try? parser.finish()) == .end(trailers: [:]) {
                pool.closed(self)
                exchange.complete(loop: channel.eventLoop)
                return
            }
            pool.closed(self)
            let nothingSent = channel.bytesWritten == writtenBefore
            if reused && !exchange.receivedAny && !exchange.retried && (exchange.isIdempotent || nothingSent) {
                pool.retry(exchange)
                return
            }
            exchange.fail(
                error
                    ?? IOError(
                        .connectionClosed,
                        exchange.head == nil
                            ? "The server closed the connection without answering."
                            : "The server closed the connection before the response was complete."))
        }
    }
#endif
