/// An HTTP/1.1 server on POSIX sockets that answers requests with a list of ``HTTPResponder``s.
///
/// ```swift
/// import TetherServer
///
/// let rest = JSONServerResponder(database: try JSONDatabase(BuiltInDataSet.make()))
/// let search = RakutenSearchResponder(catalog: RakutenCatalog(seed: 1))
/// let server = HTTPServer(configuration: .init(), responders: [rest, search])
/// let port = try await server.start()     // 127.0.0.1, a free port
/// // ... http://127.0.0.1:\(port)/posts/1
/// await server.stop()
/// ```
///
/// Each request goes to the responders in order; the first response wins, and when none answers the server
/// sends `404` with the body `{}` (as json-server does). A `HEAD` request reaches the responders as `GET`, and
/// only the head of their response is sent. Requests carrying a ``FaultScript`` get their faults, and the
/// configuration's ``FaultConfiguration`` adds random ones.
///
/// Connections support keep-alive, pipelining (answered in order), `Expect: 100-continue`, HTTP/1.0 and
/// streamed (chunked) responses, and HTTPS with ``Configuration/tls`` (Linux). Limits, timeouts and the connection
/// limit are in ``Configuration``.
///
/// A streamed body is pulled from its stream only as fast as the client reads: while more than
/// ``Configuration/maximumPendingStreamBytes`` wait for the socket, the server stops pulling.
///
/// - Thread safety: every method may be called from any thread or task. The server runs one OS thread for
///   accepting and one per connection, with blocking socket calls that never occupy the Swift concurrency pool;
///   responders run as tasks, concurrently for different connections (on Linux the connection's thread runs
///   them while it waits; work they resume while it is busy goes to the pool), and a slow responder delays only
///   its own connection.
/// - Platforms: built and tested on Linux. The Apple-platform branches of the socket code are reviewed but not
///   compiled in this project's CI.
public final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running(ServerCore)
        case stopped
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let responders: [any HTTPResponder]
    private let state = Locked(State.idle)

    public init(configuration: Configuration = Configuration(), responders: [any HTTPResponder]) {
        self.configuration = configuration
        self.responders = responders
    }

    deinit {
        if case .running(let core) = state.withLock({ $0 }) {
            core.stopAccepting()
            core.registry.forceClose()
        }
    }

    /// Binds, listens and starts accepting; returns the port (the chosen one when the configuration says `0`).
    ///
    /// - Throws: ``ServerError``: `addressInUse`, `invalidHost`, `invalidPort`, `bindFailed`, `socketFailed`,
    ///   `invalidTLSIdentity` for a ``Configuration/tls`` certificate or key that cannot be used, or `invalidState`
    ///   when the server was started before.
    @discardableResult
    public func start() async throws(ServerError) -> Int {
        try state.withLock { (state) throws(ServerError) -> Int in
            guard case .idle = state else {
                throw ServerError(.invalidState, "the server was already started")
            }
            let core = try ServerCore(configuration: configuration, responders: responders)
            try core.startAccepting()
            state = .running(core)
            return core.port
        }
    }

    /// The port the server listens on; `nil` before ``start()`` and after ``stop()``.
    public var port: Int? {
        if case .running(let core) = state.withLock({ $0 }) { return core.port }
        return nil
    }

    /// Stops gracefully: stops accepting, closes idle connections, lets in-flight requests finish (their
    /// responses say `Connection: close`) for up to `shutdownGracePeriod`, then closes what is left. Returns when
    /// the listening socket is closed and the connections are gone (or, for responders that ignore
    /// cancellation, abandoned). Calling it again, or before ``start()``, does nothing.
    public func stop() async {
        let core: ServerCore? = state.withLock { state in
            guard case .running(let core) = state else {
                state = .stopped
                return nil
            }
            state = .stopped
            return core
        }
        guard let core else { return }
        core.stopAccepting()
        await core.awaitAcceptLoopEnd()
        core.registry.drain()
        let deadline = ContinuousClock.now + configuration.shutdownGracePeriod
        while core.registry.count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        guard core.registry.count > 0 else { return }
        core.registry.forceClose()
        let forcedDeadline = ContinuousClock.now + .seconds(1)
        while core.registry.count > 0, ContinuousClock.now < forcedDeadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
