import Dispatch
import TetherHTTP1
import TetherJSON
import TetherSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux)
    import TetherIO
#endif

/// A running server: the listening socket, the accept thread, the open connections and what they share.
///
/// - Thread safety: immutable after `init` except through ``ConnectionRegistry`` and the locked state here; the
///   accept loop runs on its own thread, each connection on another.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let responders: [any HTTPResponder]
    let registry = ConnectionRegistry()
    let faults: FaultInjector
    let listener: Socket
    let port: Int
    #if os(Linux)
        /// The certificate and key of an HTTPS server.
        let tlsContext: TLSContext?
    #endif
    /// The responders in order, and the not-found answer.
    let chain: ResponderChain

    /// The connection limit: the configuration's, or 512 when it says `0` (no open-file limit is derived here).
    var maximumConnections: Int {
        configuration.maximumConnections > 0 ? configuration.maximumConnections : 512
    }

    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let acceptFinished = DispatchSemaphore(value: 0)
    private let rejecting = Locked(0)

    /// Binds and listens; the accept loop starts with ``startAccepting()``.
    init(configuration: HTTPServer.Configuration, responders: [any HTTPResponder]) throws(ServerError) {
        self.configuration = configuration
        self.responders = responders
        chain = ResponderChain(responders: responders)
        faults = FaultInjector(configuration: configuration.faults)
        #if os(Linux)
            if let identity = configuration.tls {
                do throws(IOError) {
                    tlsContext = try TLSContext(
                        serverCertificateFile: identity.certificateFile, privateKeyFile: identity.privateKeyFile)
                } catch {
                    throw ServerError(.invalidTLSIdentity, error.message)
                }
            } else {
                tlsContext = nil
            }
        #else
            if configuration.tls != nil {
                throw ServerError(.invalidTLSIdentity, "HTTPS is only available on Linux")
            }
        #endif
        let (listener, port) = try Socket.listen(host: configuration.host, port: configuration.port, backlog: 1024)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            listener.close()
            throw ServerError(.socketFailed, "pipe failed", systemError: errno)
        }
        _ = fcntl(listener.fd, F_SETFL, fcntl(listener.fd, F_GETFL) | O_NONBLOCK)
        // Not inherited by programs the host app starts.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        self.listener = listener
        self.port = port
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    /// Starts the accept thread.
    func startAccepting() throws(ServerError) {
        guard DetachedThread.start({ [self] in acceptLoop() }) else {
            listener.close()
            _ = close(wakeRead)
            _ = close(wakeWrite)
            throw ServerError(.socketFailed, "cannot start the accept thread")
        }
    }

    private func acceptLoop() {
        defer { acceptFinished.signal() }
        var fds = [
            pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents & Int16(POLLIN) == 0 { continue }
            while let client = listener.accept() {
                admit(client)
            }
            if errno == EMFILE || errno == ENFILE {
                // Out of descriptors: back off instead of spinning on a listener that stays readable.
                usleep(10_000)
            }
        }
    }

    private func admit(_ accepted: Socket) {
        accepted.configureAccepted(sendTimeout: configuration.idleTimeout)
        #if os(Linux)
            guard let client = secured(accepted) else { return }
        #else
            let client = accepted
        #endif
        if registry.count >= maximumConnections {
            reject(client)
            return
        }
        guard let id = registry.add(client) else { return }
        let started = DetachedThread.start { [self] in
            Connection(id: id, socket: client, core: self).run()
        }
        if !started { registry.remove(id) }
    }

    #if os(Linux)
        /// `socket` with its TLS session on an HTTPS server, as it is otherwise; `nil` (the socket closed) when it
        /// is over the connection limit, which an HTTPS connection is not told (a 503 would need a handshake first),
        /// or OpenSSL cannot make a session.
        private func secured(_ socket: Socket) -> Socket? {
            guard let tlsContext else { return socket }
            guard registry.count < maximumConnections, let session = try? tlsContext.makeSession()
            else {
                socket.close()
                return nil
            }
            var secured = socket
            secured.tls = TLSStream(session: session)
            return secured
        }
    #endif

    /// Answers a connection over the limit with 503 and closes it, on a short-lived thread (at most 32 at once;
    /// beyond that the connection is closed unanswered).
    private func reject(_ client: Socket) {
        let admitted = rejecting.withLock { count in
            guard count < 32 else { return false }
            count += 1
            return true
        }
        guard admitted else {
            client.close()
            return
        }
        let started = DetachedThread.start { [self] in
            var response = HTTPResponse.jsonError(
                .serviceUnavailable, "too many connections", code: "too_many_connections")
            response.headers.add("Retry-After", "1")
            let body = response.bodyBytes ?? []
            let head = HTTPResponseSerializer.head(
                of: response, bodyLength: body.count, version: .http11, keepAlive: false)
            _ = client.send(head, body)
            log(method: "-", target: "-", status: 503, bytes: body.count, elapsed: .zero, faults: nil)
            Connection.lingeringClose(client)
            client.close()
            rejecting.withLock { $0 -= 1 }
        }
        if !started {
            client.close()
            rejecting.withLock { $0 -= 1 }
        }
    }

    /// Asks the accept loop to end; ``awaitAcceptLoopEnd()`` waits for it.
    func stopAccepting() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Waits for the accept thread to end (after ``stopAccepting()``), then releases the descriptors.
    func awaitAcceptLoopEnd() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [self] in
                acceptFinished.wait()
                listener.close()
                _ = close(wakeRead)
                _ = close(wakeWrite)
                continuation.resume()
            }
        }
    }

    /// Writes an access-log line, `METHOD target status bytes µs`, plus the faults applied, when logging is on.
    func log(method: String, target: String, status: Int, bytes: Int, elapsed: Duration, faults: FaultPlan?) {
        guard let accessLog = configuration.accessLog else { return }
        let microseconds = elapsed.nanosecondCount / 1000
        var line = "\(method) \(target) \(status) \(bytes) \(microseconds)µs"
        if let faults { line += " fault=\(faults.logDescription)" }
        accessLog(line)
    }
}
