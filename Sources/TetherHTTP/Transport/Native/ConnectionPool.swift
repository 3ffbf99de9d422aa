#if os(Linux)
    import TetherIO

    /// The transport's pools, one per origin; confined to the event loop.
    final class PoolSet: @unchecked Sendable {
        let loop: EventLoop
        let configuration: NativeTransport.Configuration
        private var pools: [String: ConnectionPool] = [:]
        /// The client TLS settings of https connections, made on the first https request.
        private var tlsContext: TLSContext?

        init(loop: EventLoop, configuration: NativeTransport.Configuration) {
            self.loop = loop
            self.configuration = configuration
        }

        /// Starts `exchange` (on the loop): its deadline, then a connection from its origin's pool. `tls` is the
        /// transport's TLS context for an https exchange.
        func start(
            _ exchange: NativeExchange, tls: TLSContext?,
            _ continuation: CheckedContinuation<TransportResponse, any Error>
        ) {
            guard exchange.begin(continuation, loop: loop) else { return }
            if tlsContext == nil { tlsContext = tls }
            pool(for: exchange).acquire(for: exchange)
        }

        private func pool(for exchange: NativeExchange) -> ConnectionPool {
            if let pool = pools[exchange.origin] { return pool }
            let pool = ConnectionPool(
                host: exchange.host, port: exchange.port, loop: loop, configuration: configuration,
                tls: exchange.isTLS ? tlsContext : nil)
            pools[exchange.origin] = pool
            return pool
        }

        func openConnections() -> [String: Int] {
            pools.compactMapValues { $0.open > 0 ? $0.open : nil }
        }

        func closeIdle() {
            for pool in pools.values { pool.closeIdle() }
        }
    }

    /// The connections to one origin: the idle ones (most recently used last), how many are open or opening, and
    /// the requests waiting for one.
    final class ConnectionPool {
        let host: String
        let port: Int
        let loop: EventLoop
        let configuration: NativeTransport.Configuration
        /// The TLS settings for an https origin; `nil` for http.
        let tls: TLSContext?
        /// Connections open or being opened.
        private(set) var open = 0
        private var idle: [HTTPConnection] = []
        private var waiters: [NativeExchange] = []

        init(
            host: String, port: Int, loop: EventLoop, configuration: NativeTransport.Configuration, tls: TLSContext?
        ) {
            self.host = host
            self.port = port
            self.loop = loop
            self.configuration = configuration
            self.tls = tls
        }

        /// Runs `exchange` on the most recent idle connection, a new one, or queues it until one comes free.
        /// `fresh` asks for a new connection (a retry after a dead one).
        func acquire(for exchange: NativeExchange, fresh: Bool = false) {
            if !fresh, let connection = idle.popLast() {
                connection.run(exchange, reused: true)
                return
            }
            if open >= configuration.maximumConnectionsPerHost, !idle.isEmpty {
                // Make room: the least recently used idle connection goes.
                idle.removeFirst().close()
            }
            if open < configuration.maximumConnectionsPerHost {
                connect(for: exchange)
            } else {
                exchange.waitingIn = self
                waiters.append(exchange)
            }
        }

        private func connect(for exchange: NativeExchange) {
            open += 1
            var bootstrap = ClientBootstrap(eventLoop: loop)
            bootstrap.connectTimeout = configuration.connectTimeout
            exchange.connecting = bootstrap.connect(host: host, port: port) { [self] result, timings in
                exchange.connecting = nil
                switch result {
                case .success(let channel):
                    exchange.metrics.lookup = timings.lookup
                    exchange.metrics.connect = timings.connect
                    if let tls {
                        startTLS(on: channel, tls, for: exchange)
                    } else {
                        connected(channel, for: exchange)
                    }
                case .failure(let error):
                    connectFailed(error, for: exchange)
                }
            }
        }

        /// Runs the TLS handshake of a new https connection under its timeout, then the exchange on it.
        private func startTLS(on channel: Channel, _ tls: TLSContext, for exchange: NativeExchange) {
            let session: TLSSession
            do {
                session = try tls.makeSession(serverName: host)
            } catch {
                channel.close()
                connectFailed(error, for: exchange)
                return
            }
            let started = ContinuousClock.now
            exchange.handshaking = channel
            channel.startTLS(session, timeout: configuration.tlsHandshakeTimeout) { [self] error in
                exchange.handshaking = nil
                if let error {
                    connectFailed(error, for: exchange)
                } else {
                    exchange.metrics.tls = .now - started
                    connected(channel, for: exchange)
                }
            }
        }

        /// A new connection is ready (connected, and TLS done for https): the exchange runs on it, or, when the
        /// exchange ended meanwhile, it serves the next waiter or goes idle.
        private func connected(_ channel: Channel, for exchange: NativeExchange) {
            let connection = HTTPConnection(channel: channel, pool: self)
            channel.handler = connection
            if exchange.finished {
                release(connection)
                return
            }
            connection.run(exchange, reused: false)
        }

        private func connectFailed(_ error: IOError, for exchange: NativeExchange) {
            open -= 1
            exchange.fail(error)
            serveWaiters()
        }

        /// A connection finished a response and can carry another: the next waiter gets it, or it goes idle.
        func release(_ connection: HTTPConnection) {
            while !waiters.isEmpty {
                let next = waiters.removeFirst()
                next.waitingIn = nil
                if next.finished { continue }
                connection.run(next, reused: true)
                return
            }
            idle.append(connection)
            connection.idle(for: configuration.idleTimeout)
        }

        /// A connection closed.
        func closed(_ connection: HTTPConnection) {
            open -= 1
            idle.removeAll { $0 === connection }
            serveWaiters()
        }

        /// Retries `exchange` on a new connection.
        func retry(_ exchange: NativeExchange) {
            exchange.resetForRetry()
            acquire(for: exchange, fresh: true)
        }

        func removeWaiter(_ exchange: NativeExchange) {
            waiters.removeAll { $0 === exchange }
        }

        func closeIdle() {
            for connection in idle { connection.close() }
        }

        /// Opens connections for waiting requests while the limit allows.
        private func serveWaiters() {
            while open < configuration.maximumConnectionsPerHost, !waiters.isEmpty {
                let next = waiters.removeFirst()
                next.waitingIn = nil
                if !next.finished { connect(for: next) }
            }
        }
    }
#endif
