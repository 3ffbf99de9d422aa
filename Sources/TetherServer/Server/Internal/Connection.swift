import TetherHTTP1

/// One client connection, served on its own OS thread with blocking socket calls and receive timeouts.
///
/// Reads bytes into an incremental ``HTTPRequestParser`` and answers every complete request in order (so
/// pipelined requests are answered in order), keeping the connection alive as HTTP/1.1 and HTTP/1.0 allow.
/// Responders run as Swift tasks whose jobs this thread runs while it waits for their response through a
/// ``Handoff`` (on Linux, through the connection's ``ConnectionExecutor``; on Apple platforms they run on the
/// concurrency pool), so a responder that does not suspend answers without a thread switch and a slow one holds
/// only its own connection.
///
/// Timeouts: with no partial request buffered the connection is idle and closes silently after `idleTimeout`; once
/// a request's first byte arrives, the whole request must arrive within `headerTimeout` (restarted when
/// `100 Continue` is sent), else it is answered `408` and closed.
final class Connection {
    let id: Int
    let socket: Socket
    let core: ServerCore
    var parser: HTTPRequestParser
    private let buffer: UnsafeMutableRawBufferPointer
    private var receiveTimeout: Duration?
    #if !canImport(Darwin)
        let executor = ConnectionExecutor()
    #endif

    static let bufferSize = 64 * 1024

    init(id: Int, socket: Socket, core: ServerCore) {
        self.id = id
        self.socket = socket
        self.core = core
        parser = HTTPRequestParser(limits: core.configuration.limits)
        buffer = .allocate(byteCount: Connection.bufferSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Serves the connection until it closes, then closes the socket.
    func run() {
        defer { core.registry.remove(id) }
        #if os(Linux)
            if let tls = socket.tls {
                // The handshake has the time a request has to arrive.
                socket.setReceiveTimeout(core.configuration.headerTimeout)
                guard tls.handshake(over: socket, buffer: buffer) else { return }
            }
        #endif
        var requestStarted: ContinuousClock.Instant?
        while true {
            while true {
                let request: HTTPRequest?
                do {
                    request = try parser.nextRequest()
                } catch {
                    sendError(error.status, error.message)
                    return
                }
                guard let request else { break }
                requestStarted = nil
                guard respond(to: request) else { return }
            }
            if parser.isAwaitingContinue {
                guard socket.send(HTTPResponseSerializer.continueResponse) else { return }
                parser.continueSent()
                requestStarted = .now
            }
            let idle = parser.isIdle
            let timeout: Duration
            if idle {
                guard core.registry.markIdle(id) else { return }
                timeout = core.configuration.idleTimeout
            } else {
                let started = requestStarted ?? .now
                requestStarted = started
                let remaining = core.configuration.headerTimeout - (ContinuousClock.now - started)
                guard remaining > .zero else {
                    sendError(.requestTimeout, "the request did not arrive in time")
                    return
                }
                timeout = remaining
            }
            if receiveTimeout != timeout {
                socket.setReceiveTimeout(timeout)
                receiveTimeout = timeout
            }
            switch socket.receive(into: buffer) {
            case .bytes(let count):
                if idle {
                    core.registry.markBusy(id)
                    requestStarted = .now
                }
                parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .closed, .failed:
                return
            case .timedOut:
                if idle { return }
                sendError(.requestTimeout, "the request did not arrive in time")
                return
            }
        }
    }

    /// Starts a task for a responder or a body stream that pushes to `handoff`, registered so that a forced
    /// shutdown abandons it; `nil` (and `handoff` abandoned) when the shutdown already happened.
    ///
    /// On Linux the task runs on this connection's ``ConnectionExecutor``: its first job, and every job while this
    /// thread is in ``wait(for:)``, runs on this thread, so a responder that does not suspend answers without a
    /// thread switch. The caller must call ``wait(for:)`` next, with no blocking call in between. Elsewhere the
    /// task runs on the global pool.
    func startWork<Value>(
        _ handoff: Handoff<Value>, _ body: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never>? {
        #if canImport(Darwin)
            let task = Task(operation: body)
        #else
            executor.beginWaiting()
            let task = Task(executorPreference: executor, operation: body)
        #endif
        guard
            core.registry.beginWork(
                id,
                abandon: {
                    handoff.abandon()
                    task.cancel()
                })
        else {
            #if !canImport(Darwin)
                executor.endWaiting()
            #endif
            return nil
        }
        return task
    }

    /// A handoff whose values ``wait(for:)`` can wait for; `capacity` and `cost` as in ``Handoff``.
    func makeHandoff<Value>(
        of type: Value.Type = Value.self, capacity: Int = .max, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }
    ) -> Handoff<Value> {
        #if canImport(Darwin)
            return Handoff(capacity: capacity, cost: cost)
        #else
            return Handoff(signal: executor.signal, capacity: capacity, cost: cost)
        #endif
    }

    /// The handoff's next value, running this connection's tasks meanwhile; `nil` when finished or abandoned.
    func wait<Value>(for handoff: Handoff<Value>) -> Value? {
        #if canImport(Darwin)
            return handoff.next()
        #else
            return executor.run(until: handoff)
        #endif
    }

    /// Answers a request that could not be read (`status` with a JSON error body), then closes.
    private func sendError(_ status: HTTPStatus, _ message: String) {
        let response = HTTPResponse.jsonError(status, message)
        let body = response.bodyBytes ?? []
        let head = HTTPResponseSerializer.head(of: response, bodyLength: body.count, version: .http11, keepAlive: false)
        _ = socket.send(head, body)
        core.log(method: "-", target: "-", status: status.code, bytes: body.count, elapsed: .zero, faults: nil)
        Connection.lingeringClose(socket)
    }

    /// Ends the sending side and reads what the client still sends (briefly), so the response is not lost to a
    /// reset caused by unread input. The caller closes the socket.
    static func lingeringClose(_ socket: Socket) {
        socket.closeTLS()
        socket.shutdown(.write)
        socket.setReceiveTimeout(.milliseconds(250))
        let deadline = ContinuousClock.now + .seconds(1)
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        defer { scratch.deallocate() }
        while ContinuousClock.now < deadline {
            guard case .bytes = socket.receive(into: scratch) else { return }
        }
    }
}
