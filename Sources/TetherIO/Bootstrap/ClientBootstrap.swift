#if os(Linux)
    /// Makes client ``Channel``s: resolves the host off the loop, then races the addresses (RFC 8305, simplified:
    /// the next address is tried when the previous has not connected within ``attemptDelay`` or has failed; the
    /// first connection made wins and the others are closed).
    ///
    /// ```swift
    /// import TetherIO
    ///
    /// final class Printer: ChannelHandler {
    ///     func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) {
    ///         print(String(decoding: bytes, as: UTF8.self))
    ///     }
    ///     func channelInactive(_ channel: Channel, error: IOError?) {}
    /// }
    ///
    /// let loop = EventLoop.shared
    /// loop.execute {
    ///     ClientBootstrap(eventLoop: loop).connect(host: "example.com", port: 80) { result, timings in
    ///         guard case .success(let channel) = result else { return }
    ///         channel.handler = Printer()
    ///         channel.write(Array("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8))
    ///     }
    /// }
    /// ```
    ///
    /// Loop thread only: ``connect(host:port:_:)`` is called on ``eventLoop`` and calls back there.
    public struct ClientBootstrap: Sendable {
        public let eventLoop: EventLoop
        /// The longest the whole connection may take, look-up included.
        public var connectTimeout: Duration = .seconds(10)
        /// How long an address has before the next one is tried alongside it.
        public var attemptDelay: Duration = .milliseconds(250)

        public init(eventLoop: EventLoop) {
            self.eventLoop = eventLoop
        }

        /// How long the look-up and the connection took.
        public struct Timings: Sendable, Hashable {
            public var lookup: Duration = .zero
            public var connect: Duration = .zero
        }

        /// Connects to `host:port`, calling `completion` once on the loop; the returned attempt can be cancelled
        /// (then `completion` gets ``IOError/Code/closedLocally``).
        @discardableResult
        public func connect(
            host: String, port: Int, _ completion: @escaping (Result<Channel, IOError>, Timings) -> Void
        ) -> ConnectAttempt {
            let attempt = ConnectAttempt(bootstrap: self, completion: completion)
            attempt.start(host: host, port: port)
            return attempt
        }
    }

    /// One connection being made by ``ClientBootstrap``: its look-up, the addresses tried, the timers.
    public final class ConnectAttempt {
        private let bootstrap: ClientBootstrap
        private var completion: ((Result<Channel, IOError>, ClientBootstrap.Timings) -> Void)?
        private var addresses: [SocketAddress] = []
        private var nextAddress = 0
        private var inFlight: [Channel] = []
        private var lastError: IOError?
        private var timers: [EventLoop.Scheduled] = []
        private var timings = ClientBootstrap.Timings()
        private let started = ContinuousClock.now
        private var lookedUp = ContinuousClock.now

        init(
            bootstrap: ClientBootstrap,
            completion: @escaping (Result<Channel, IOError>, ClientBootstrap.Timings) -> Void
        ) {
            self.bootstrap = bootstrap
            self.completion = completion
        }

        private var loop: EventLoop { bootstrap.eventLoop }

        func start(host: String, port: Int) {
            timers.append(
                loop.schedule(in: bootstrap.connectTimeout) { [self] in
                    finish(
                        .failure(
                            IOError(.connectTimeout, "No connection to \(host) within \(bootstrap.connectTimeout).")))
                })
            Resolver.resolve(host: host, port: port, on: loop) { [self] result in
                guard completion != nil else { return }
                lookedUp = .now
                timings.lookup = lookedUp - started
                switch result {
                case .failure(let error):
                    finish(.failure(error))
                case .success(let addresses):
                    self.addresses = addresses
                    tryNext()
                }
            }
        }

        /// Abandons the attempt: open sockets are closed and the completion gets ``IOError/Code/closedLocally``.
        public func cancel() {
            finish(.failure(IOError(.closedLocally, "The connection attempt was cancelled.")))
        }

        private func tryNext() {
            guard completion != nil else { return }
            guard nextAddress < addresses.count else {
                if inFlight.isEmpty {
                    finish(.failure(lastError ?? IOError(.connectionFailed, "No address to connect to.")))
                }
                return
            }
            let address = addresses[nextAddress]
            nextAddress += 1
            var made: Channel?
            made = Channel.connect(to: address, on: loop) { [self] error in
                let channel = made
                inFlight.removeAll { $0 === channel }
                if let error {
                    if error.code != .closedLocally { lastError = error }
                    tryNext()
                } else if let channel {
                    finish(.success(channel))
                }
            }
            if let made {
                inFlight.append(made)
                if nextAddress < addresses.count {
                    timers.append(loop.schedule(in: bootstrap.attemptDelay) { [self] in tryNext() })
                }
            }
        }

        private func finish(_ result: Result<Channel, IOError>) {
            guard let completion else {
                if case .success(let channel) = result { channel.close() }
                return
            }
            self.completion = nil
            for timer in timers { loop.cancel(timer) }
            timers = []
            let losers = inFlight.filter { channel in
                if case .success(let winner) = result { return channel !== winner }
                return true
            }
            inFlight = []
            for channel in losers { channel.close() }
            timings.connect = .now - lookedUp
            completion(result, timings)
        }
    }
#endif
