#if os(Linux)
    import TetherHTTP1
    import TetherIO

    /// One client connection of the event-loop server: performs what its ``ConnectionStateMachine`` decides on its
    /// ``Channel``, runs the responders off the loop, and writes their responses with backpressure.
    ///
    /// Loop-confined: every member is used on the channel's loop only (responder tasks hand their results back
    /// with `execute`), hence `@unchecked Sendable`. Memory: an idle connection holds this object, its channel and
    /// an empty parser; buffers are allocated when bytes arrive and released when a request is done.
    ///
    /// Timeouts run on one loop timer per connection, rescheduled lazily: moving a deadline later costs nothing
    /// until the timer fires early and re-arms itself.
    final class HTTPConnectionHandler: ChannelHandler, @unchecked Sendable {
        let channel: Channel
        let core: LoopServerCore
        /// The connection's id in the server's table; 0 for a connection being refused.
        var id = 0
        var machine: ConnectionStateMachine
        /// Whether the table knows the connection as busy.
        private var reportedBusy = false

        // Timers.
        private var deadline: ContinuousClock.Instant?
        private var timer: EventLoop.Scheduled?
        private var timerDue: ContinuousClock.Instant?

        // The request being answered.
        var exchange: Exchange?
        var work: Task<Void, Never>?
        var pump: StreamPump?
        /// Run when every byte written has gone out (see ``channelWritable(_:)``).
        var whenFlushed: (() -> Void)?
        /// Set once the sending side is shut down: what still arrives is read and dropped.
        private var lingering = false

        init(channel: Channel, core: LoopServerCore) {
            self.channel = channel
            self.core = core
            machine = ConnectionStateMachine(limits: core.configuration.limits)
        }

        /// Starts serving: the header timeout runs until the first byte (on HTTPS, through the handshake).
        func start() {
            channel.handler = self
            perform([.startTimer(.header)])
            guard let tls = core.tlsContext else { return }
            guard let session = try? tls.makeSession() else {
                channel.close()
                return
            }
            channel.startTLS(session, timeout: core.configuration.headerTimeout) { _ in }
        }

        // MARK: - Channel events

        func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) {
            if lingering { return }
            perform(machine.received(bytes))
        }

        func channelInactive(_ channel: Channel, error: IOError?) {
            machine.closed()
            if let timer { channel.eventLoop.cancel(timer) }
            timer = nil
            deadline = nil
            whenFlushed = nil
            pump?.cancel()
            pump = nil
            work?.cancel()
            work = nil
            if id != 0 { core.connectionClosed(id) } else { core.rejectionEnded() }
        }

        func channelWritable(_ channel: Channel) {
            guard let action = whenFlushed else { return }
            whenFlushed = nil
            if machine.phase == .responding { deadline = nil }
            action()
        }

        /// Runs `action` once every byte written has gone out: now, or when the socket has taken them. While it
        /// waits, a client that reads nothing for the idle timeout is disconnected.
        func afterFlush(_ action: @escaping () -> Void) {
            guard channel.isActive else { return }
            if channel.isFlushed {
                action()
                return
            }
            whenFlushed = action
            setDeadline(.now + core.configuration.idleTimeout)
        }

        /// Runs `action` once at most `bound` bytes wait for the socket.
        func whenRoom(below bound: Int, _ action: @escaping () -> Void) {
            if channel.pendingWriteBytes <= bound {
                action()
            } else {
                afterFlush(action)
            }
        }

        // MARK: - From the server

        /// The server is shutting down.
        func drain() {
            perform(machine.drain())
        }

        /// The connection was taken out of the table to make room for another.
        func evict() {
            perform(machine.evict())
        }

        /// A forced shutdown: close now, whatever is in progress.
        func forceClose() {
            channel.close(IOError(.closedLocally, "The server shut down."))
        }

        // MARK: - Actions

        func perform(_ actions: [ConnectionStateMachine.Action]) {
            for action in actions {
                guard channel.isActive else { return }
                switch action {
                case .sendContinue:
                    channel.write(HTTPResponseSerializer.continueResponse)
                case .respond(let request):
                    respond(to: request)
                case .fail(let status, let message):
                    sendError(status, message)
                case .close:
                    channel.close()
                case .closeAfterResponse:
                    closeAfterResponse()
                case .startTimer(let kind):
                    switch kind {
                    case .header?: setDeadline(.now + core.configuration.headerTimeout)
                    case .idle?: setDeadline(.now + core.configuration.idleTimeout)
                    case nil: deadline = nil
                    }
                case .pauseReading(let paused):
                    channel.isReadingPaused = paused
                }
            }
            reportBusyness()
        }

        private func reportBusyness() {
            guard id != 0, channel.isActive else { return }
            let busy = machine.hasRequestInProgress
            guard busy != reportedBusy else { return }
            reportedBusy = busy
            core.connection(id, isBusy: busy)
        }

        /// Answers a request that could not be read (`status` with a JSON error body), then closes.
        func sendError(_ status: HTTPStatus, _ message: String, retryAfter: Bool = false, code: String? = nil) {
            var response = HTTPResponse.jsonError(status, message, code: code)
            if retryAfter { response.headers.add("Retry-After", "1") }
            let body = response.bodyBytes ?? []
            let head = HTTPResponseSerializer.head(
                of: response, bodyLength: body.count, version: .http11, keepAlive: false)
            channel.write(head + body)
            core.log(method: "-", target: "-", status: status.code, bytes: body.count, elapsed: .zero, faults: nil)
            machine.closed()
            closeAfterResponse()
        }

        /// Closes once the response has gone out: over TLS at once after it (with `close_notify`); otherwise the
        /// sending side ends and what the client still sends is read for up to a second, so that the response is
        /// not lost to a reset caused by unread input.
        func closeAfterResponse() {
            afterFlush { [self] in
                if core.tlsContext != nil {
                    channel.close()
                    return
                }
                lingering = true
                channel.isReadingPaused = false
                channel.shutdownOutput()
                setDeadline(.now + .seconds(1))
            }
        }

        // MARK: - Timer

        private func setDeadline(_ due: ContinuousClock.Instant) {
            deadline = due
            if let timerDue, timerDue <= due { return }
            schedule(due)
        }

        private func schedule(_ due: ContinuousClock.Instant) {
            if let timer { channel.eventLoop.cancel(timer) }
            timerDue = due
            timer = channel.eventLoop.schedule(at: due) { [self] in
                timer = nil
                timerDue = nil
                timerFired()
            }
        }

        private func timerFired() {
            guard channel.isActive, let deadline else { return }
            if ContinuousClock.now < deadline {
                schedule(deadline)
                return
            }
            self.deadline = nil
            if lingering || machine.phase == .responding || machine.phase == .closed {
                // The lingering close is over, or the client has not read a response for the idle timeout.
                channel.close()
                return
            }
            perform(machine.timerFired())
        }
    }
#endif
