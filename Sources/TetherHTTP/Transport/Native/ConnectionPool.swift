#if os(Linux)
    import TetherIO

    /// The transport's pools, one per origin; confined to the event loop.
    final class PoolSet: @unchecked Sendable {
        let loop: EventLoop
        let configuration: NativeTransport.Configuration
        private var pools: [String: ConnectionPool] = [:]

        init(loop: EventLoop, configuration: NativeTransport.Configuration) {
            self.loop = loop
            self.configuration = configuration
        }

        /// Starts `exchange` (on the loop): its deadline, then a connection from its origin's pool.
        func start(_ exchange: NativeExchange, _ continuation: CheckedContinuation<TransportResponse, any Error>) {
            guard exchange.begin(continuation, loop: loop) else { return }
            pool(for: exchange).acquire(for: exchange)
        }

        private func pool(for exchange: NativeExchange) -> ConnectionPool {
            if let pool = pools[exchange.origin] { return pool }
            let pool = ConnectionPool(
                host: exchange.host, port: exchange.port, loop: loop, configuration: configuration)
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
        /// Connections open or being opened.
        private(set) var open = 0
        private var idle: [HTTPConnection] = []
        private var waiters: [NativeExchange] = []

        init(host: String, port: Int, loop: EventLoop, configuration: NativeTransport.Configuration) {
            self.host = host
            self.port = port
            self.loop = loop
            self.configuration = configuration
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
                    let connection = HTTPConnection(channel: channel, pool: self)
                    channel.handler = connection
                    if exchange.finished {
                        release(connection)
                        return
                    }
                    exchange.metrics.lookup = timings.lookup
                    exchange.metrics.connect = timings.connect
                    connection.run(exchange, reused: false)
                case .failure(let error):
                    open -= 1
                    exchange.fail(error)
                    serveWaiters()
                }
            }
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
