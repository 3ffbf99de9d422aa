#if os(Linux)
    import TetherHTTP1
    import TetherIO

    /// A request being answered by an ``HTTPConnectionHandler``.
    struct Exchange {
        /// The request as it arrived (a HEAD stays HEAD here).
        var request: HTTPRequest
        var plan: FaultPlan?
        var started: ContinuousClock.Instant
        var response: HTTPResponse?
        var keepAlive = false
        var chunked = false
        var sent = 0
    }

    extension HTTPConnectionHandler {
        /// Applies the request's faults and runs the responders in a task, off the loop; the response comes back to
        /// the loop and is written in ``write(_:)``.
        func respond(to parsed: HTTPRequest) {
            var request = parsed
            exchange = Exchange(request: parsed, started: .now)
            let plan: FaultPlan?
            do {
                plan = try core.faults.plan(for: &request)
            } catch {
                write(HTTPResponse.jsonError(.badRequest, error.message, code: "invalid_fault"))
                return
            }
            exchange?.plan = plan
            exchange?.request.target = request.target
            if request.method == .head { request.method = .get }
            let core = self.core
            let loop = channel.eventLoop
            if core.responders.runsOnEventLoop {
                // On this loop: the first job runs at the end of this turn, and a responder that does not suspend
                // answers within it, with no thread switch.
                work = Task(executorPreference: core.taskExecutor(for: loop)) { [self] in
                    let response = await core.responders.response(to: request, plan: plan)
                    if loop.inEventLoop {
                        write(response)
                    } else {
                        loop.execute { [self] in write(response) }
                    }
                }
            } else {
                work = Task(executorPreference: ResponderTaskExecutor.shared) { [self] in
                    let response = await core.responders.response(to: request, plan: plan)
                    loop.execute { [self] in write(response) }
                }
            }
        }

        /// Writes the response to the request in ``exchange``.
        func write(_ response: HTTPResponse) {
            work = nil
            guard channel.isActive, var exchange else { return }
            let request = exchange.request
            let isHead = request.method == .head
            let reset = exchange.plan?.reset ?? false
            let truncate = exchange.plan?.truncate ?? false
            exchange.response = response
            exchange.keepAlive =
                !reset && !truncate && request.keepAlive && !ResponderChain.closes(response) && !machine.isDraining
            self.exchange = exchange

            switch response.body {
            case .bytes(let body):
                writeBytes(body, isHead: isHead, reset: reset, truncate: truncate)
                finish()
            case .stream(let stream):
                if isHead {
                    channel.write(
                        HTTPResponseSerializer.head(
                            of: response, bodyLength: nil, version: request.version, keepAlive: exchange.keepAlive))
                    finish()
                } else if truncate {
                    collectThenTruncate(stream)
                } else {
                    startStream(stream, reset: reset)
                }
            }
        }

        /// Writes the head and body in one write; for a truncated response, announces the full length (at least
        /// one byte) and sends half; for a reset one, sends half and leaves the reset to ``finish()``.
        private func writeBytes(_ body: [UInt8], isHead: Bool, reset: Bool, truncate: Bool) {
            guard var exchange, var response = exchange.response else { return }
            let version = exchange.request.version
            var announced = body.count
            if truncate || reset {
                response.headers.remove("Content-Length")
                if truncate { announced = max(body.count, 1) }
            }
            let head = HTTPResponseSerializer.head(
                of: response, bodyLength: announced, version: version,
                keepAlive: exchange.keepAlive && !truncate && !reset)
            let framing = HTTPResponseSerializer.framing(of: response, bodyLength: announced, version: version)
            guard !isHead, case .contentLength = framing else {
                channel.write(head)
                return
            }
            let count = truncate || reset ? body.count / 2 : body.count
            if count < 32 * 1024 {
                channel.write(head + body[0..<count])
            } else {
                channel.write(head)
                channel.write(count == body.count ? body : Array(body[0..<count]))
            }
            exchange.sent = count
            self.exchange = exchange
        }

        private func collectThenTruncate(_ stream: AsyncStream<[UInt8]>) {
            let loop = channel.eventLoop
            work = Task(executorPreference: ResponderTaskExecutor.shared) { [self] in
                var collected: [UInt8] = []
                for await chunk in stream { collected += chunk }
                let body = collected
                loop.execute { [self] in
                    work = nil
                    guard channel.isActive else { return }
                    writeBytes(body, isHead: false, reset: false, truncate: true)
                    finish()
                }
            }
        }

        /// Writes a streamed body as it is produced: in chunks, or raw until the close for HTTP/1.0 (or the
        /// response's own `Content-Length`). A reset sends the head and the first chunk only.
        ///
        /// Backpressure: the next chunk is pulled only once at most `maximumPendingStreamBytes` wait for the socket.
        private func startStream(_ stream: AsyncStream<[UInt8]>, reset: Bool) {
            guard var exchange, let response = exchange.response else { return }
            let version = exchange.request.version
            let framing = HTTPResponseSerializer.framing(of: response, bodyLength: nil, version: version)
            if framing == .untilClose { exchange.keepAlive = false }
            exchange.chunked = framing == .chunked
            self.exchange = exchange
            channel.write(
                HTTPResponseSerializer.head(
                    of: response, bodyLength: nil, version: version, keepAlive: exchange.keepAlive))
            if framing == .none {
                finish()
                return
            }
            let pump = StreamPump()
            self.pump = pump
            pump.start(
                stream, loop: channel.eventLoop,
                chunk: { [self] source, bytes in streamChunk(bytes, from: source, reset: reset) },
                end: { [self] source in streamEnded(from: source) })
        }

        private func streamChunk(_ bytes: [UInt8], from source: StreamPump, reset: Bool) {
            guard channel.isActive, let pump, pump === source, var exchange else { return }
            if !bytes.isEmpty {
                channel.write(exchange.chunked ? HTTPResponseSerializer.chunk(bytes) : bytes)
                exchange.sent += bytes.count
                self.exchange = exchange
                if reset {
                    pump.cancel()
                    self.pump = nil
                    finish()
                    return
                }
            }
            whenRoom(below: core.configuration.maximumPendingStreamBytes) { pump.grant() }
        }

        private func streamEnded(from source: StreamPump) {
            guard channel.isActive, pump === source, let exchange else { return }
            pump = nil
            if exchange.chunked { channel.write(HTTPResponseSerializer.lastChunk) }
            finish()
        }

        /// The response is written (or queued): logs it, then resets, closes, or goes on to the next request.
        private func finish() {
            guard let exchange else { return }
            self.exchange = nil
            let request = exchange.request
            core.log(
                method: request.method.rawValue, target: request.target, status: exchange.response?.status.code ?? 0,
                bytes: exchange.sent, elapsed: ContinuousClock.now - exchange.started, faults: exchange.plan)
            if exchange.plan?.reset ?? false {
                machine.closed()
                afterFlush { [self] in
                    channel.setResetOnClose()
                    channel.close()
                }
                return
            }
            guard exchange.keepAlive else {
                perform(machine.responseFinished(keepAlive: false))
                return
            }
            // A client that pipelines without reading gets its next answer once this one has (mostly) gone out.
            whenRoom(below: core.configuration.maximumPendingStreamBytes) { [self] in
                perform(machine.responseFinished(keepAlive: true))
            }
        }
    }
#endif
