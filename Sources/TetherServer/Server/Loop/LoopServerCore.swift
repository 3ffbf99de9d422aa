import TetherSync

#if os(Linux)
    import TetherHTTP1
    import TetherIO

    /// A running event-loop server: the listening ``ServerChannel``, the table of connections, and what the
    /// connections share (configuration, responders, faults, TLS).
    ///
    /// Connections live on the loops of ``EventLoopGroup/shared`` (one per core); the responders run as tasks off
    /// the loops.
    ///
    /// - Thread safety: immutable after `init` except for the table and the refusal count, each behind a lock held
    ///   only for bookkeeping.
    final class LoopServerCore: Sendable {
        let configuration: HTTPServer.Configuration
        let responders: ResponderChain
        let faults: FaultInjector
        let tlsContext: TLSContext?
        let port: Int
        /// The connection limit in force (``HTTPServer/Configuration/maximumConnections``, or the one derived from
        /// the open-file limit).
        let maximumConnections: Int
        private let listener: ServerChannel
        /// One task executor per loop of the group, for responders that run on the loop.
        private let taskExecutors: [ObjectIdentifier: LoopTaskExecutor]
        private let table = Locked(ConnectionTable<HTTPConnectionHandler>())
        private let refusing = Locked(0)

        /// Binds, listens and starts accepting.
        init(configuration: HTTPServer.Configuration, responders: [any HTTPResponder]) throws(ServerError) {
            guard (0...65535).contains(configuration.port) else {
                throw ServerError(.invalidPort, "port \(configuration.port) is not in 0...65535")
            }
            self.configuration = configuration
            self.responders = ResponderChain(responders: responders)
            faults = FaultInjector(configuration: configuration.faults)
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
            let openFiles = OpenFileLimit.raiseToHardLimit()
            maximumConnections =
                configuration.maximumConnections > 0
                ? configuration.maximumConnections : OpenFileLimit.connectionLimit(openFiles: openFiles)
            taskExecutors = Dictionary(
                uniqueKeysWithValues: EventLoopGroup.shared.loops.map { (ObjectIdentifier($0), LoopTaskExecutor($0)) })
            let admitted = AdmittanceBox()
            admittedBox = admitted
            let bootstrap = ServerBootstrap(group: .shared) { channel in
                let core: LoopServerCore? = admitted.state.withLock { admittance in
                    if admittance.core == nil && !admittance.stopped { admittance.early.append(channel) }
                    return admittance.core
                }
                if let core {
                    core.admit(channel)
                } else if admitted.state.withLock({ $0.stopped }) {
                    channel.close()
                }
            }
            do throws(IOError) {
                listener = try bootstrap.bind(host: configuration.host, port: configuration.port)
            } catch {
                let code: ServerError.Code =
                    switch error.code {
                    case .addressInUse: .addressInUse
                    case .bindFailed: .bindFailed
                    case .unknownHost: .invalidHost
                    default: .socketFailed
                    }
                throw ServerError(code, error.message, systemError: error.errno)
            }
            port = listener.localPort
            let early = admitted.state.withLock { admittance in
                admittance.core = self
                defer { admittance.early = [] }
                return admittance.early
            }
            for channel in early {
                channel.eventLoop.execute { [self] in admit(channel) }
            }
        }

        /// Who takes the accepted connections: the core once made (connections accepted before wait in `early`),
        /// none once stopped, which also breaks the cycle between the bootstrap's initializer and the core.
        private struct Admittance: @unchecked Sendable {
            var core: LoopServerCore?
            /// Loop-confined channels, only handed back to their own loops.
            var early: [Channel] = []
            var stopped = false
        }

        /// The admittance shared by the core and the bootstrap's initializer.
        private final class AdmittanceBox: Sendable {
            let state = Locked(Admittance())
        }

        private let admittedBox: AdmittanceBox

        /// The task executor that runs jobs on `loop`.
        func taskExecutor(for loop: EventLoop) -> LoopTaskExecutor {
            taskExecutors[ObjectIdentifier(loop)]!
        }

        // MARK: - Connections (called on the connection's loop)

        /// Takes a new connection in: admitted (making room by closing the longest-idle connection when at the
        /// limit and ``HTTPServer/Configuration/closesIdleConnectionsAtLimit`` is on), or refused with `503`.
        func admit(_ channel: Channel) {
            let handler = HTTPConnectionHandler(channel: channel, core: self)
            let maximum = maximumConnections
            let evicts = configuration.closesIdleConnectionsAtLimit
            let admission = table.withLock { table -> ConnectionTable<HTTPConnectionHandler>.Admission in
                if !evicts && table.count >= maximum { return .refused }
                return table.admit(handler, maximum: maximum)
            }
            switch admission {
            case .admitted(let id, let evicted):
                handler.id = id
                handler.start()
                if let evicted {
                    evicted.channel.eventLoop.execute { evicted.evict() }
                }
            case .refused:
                refuse(handler)
            }
        }

        /// Answers a connection over the limit with 503 and closes it (at most 32 at once; beyond that, and on
        /// HTTPS, where a 503 would need a handshake first, it is closed unanswered).
        private func refuse(_ handler: HTTPConnectionHandler) {
            let allowed = refusing.withLock { count in
                guard count < 32, tlsContext == nil, !table.withLock({ $0.isDraining }) else { return false }
                count += 1
                return true
            }
            guard allowed else {
                handler.channel.close()
                return
            }
            handler.channel.handler = handler
            handler.sendError(
                .serviceUnavailable, "too many connections", retryAfter: true, code: "too_many_connections")
        }

        /// A refused connection closed.
        func rejectionEnded() {
            refusing.withLock { $0 -= 1 }
        }

        func connection(_ id: Int, isBusy: Bool) {
            table.withLock { table in
                if isBusy { table.markBusy(id) } else { table.markIdle(id) }
            }
        }

        func connectionClosed(_ id: Int) {
            table.withLock { $0.remove(id) }
        }

        var connectionCount: Int { table.withLock { $0.count } }

        // MARK: - Shutdown

        /// Stops gracefully (see ``HTTPServer/stop()``).
        func stop(gracePeriod: Duration) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                listener.close { continuation.resume() }
            }
            admittedBox.state.withLock { $0 = Admittance(stopped: true) }
            for handler in table.withLock({ $0.drain() }) {
                handler.channel.eventLoop.execute { handler.drain() }
            }
            let deadline = ContinuousClock.now + gracePeriod
            while connectionCount > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            guard connectionCount > 0 else { return }
            forceClose()
            let forcedDeadline = ContinuousClock.now + .seconds(1)
            while connectionCount > 0, ContinuousClock.now < forcedDeadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Closes every connection now (from any thread).
        func forceClose() {
            listener.close()
            admittedBox.state.withLock { $0 = Admittance(stopped: true) }
            for handler in table.withLock({ table in
                _ = table.drain()
                return table.handles
            }) {
                handler.channel.eventLoop.execute { handler.forceClose() }
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
#endif
