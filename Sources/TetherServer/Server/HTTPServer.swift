import TetherSync

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
/// ``Configuration/maximumPendingStreamBytes`` wait for the socket, the server stops pulling. The same bound holds
/// for a client that pipelines requests without reading: the next one is answered once the previous answer has
/// (mostly) gone out.
///
/// - Thread safety: every method may be called from any thread or task. On Linux the server runs on event loops,
///   one per core, with non-blocking sockets: an idle connection costs memory only (about a kilobyte, no
///   thread), and slow or idle clients never hold up others. Responders run as tasks, concurrently for different
///   connections, on threads where they may block (more are started as others block), so a slow responder delays
///   only its own connection; responders that declare ``HTTPResponder/runsOnEventLoop`` (the built-in ones) run
///   on the connection's loop instead, which saves two thread switches per request. On other platforms the server runs one OS thread per connection.
/// - Platforms: built and tested on Linux. The Apple-platform branches of the socket code are reviewed but not
///   compiled in this project's CI.
public final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running(ServerCore)
        #if os(Linux)
            case runningOnLoop(LoopServerCore)
        #endif
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
        switch state.withLock({ $0 }) {
        case .running(let core):
            core.stopAccepting()
            core.registry.forceClose()
        #if os(Linux)
            case .runningOnLoop(let core):
                core.forceClose()
        #endif
        default:
            break
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
            #if os(Linux)
                let core = try LoopServerCore(configuration: configuration, responders: responders)
                state = .runningOnLoop(core)
            #else
                let core = try ServerCore(configuration: configuration, responders: responders)
                try core.startAccepting()
                state = .running(core)
            #endif
            return core.port
        }
    }

    /// The port the server listens on; `nil` before ``start()`` and after ``stop()``.
    public var port: Int? {
        switch state.withLock({ $0 }) {
        case .running(let core): core.port
        #if os(Linux)
            case .runningOnLoop(let core): core.port
        #endif
        default: nil
        }
    }

    /// The connection limit in force while running: ``Configuration/maximumConnections``, or the one derived
    /// from the open-file limit when that is `0`; `nil` before ``start()`` and after ``stop()``.
    public var maximumConnections: Int? {
        switch state.withLock({ $0 }) {
        case .running: configuration.maximumConnections > 0 ? configuration.maximumConnections : 512
        #if os(Linux)
            case .runningOnLoop(let core): core.maximumConnections
        #endif
        default: nil
        }
    }

    /// Stops gracefully: stops accepting, closes idle connections, lets in-flight requests finish (their
    /// responses say `Connection: close`) for up to `shutdownGracePeriod`, then closes what is left. Returns when
    /// the listening socket is closed and the connections are gone (or, for responders that ignore
    /// cancellation, abandoned). Calling it again, or before ``start()``, does nothing.
    public func stop() async {
        let previous = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        #if os(Linux)
            if case .runningOnLoop(let core) = previous {
                await core.stop(gracePeriod: configuration.shutdownGracePeriod)
                return
            }
        #endif
        guard case .running(let core) = previous else { return }
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
