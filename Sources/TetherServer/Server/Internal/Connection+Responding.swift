import TetherHTTP1

extension Connection {
    /// Answers one complete request: applies its faults, asks the responders, writes the response.
    ///
    /// - Returns: `true` when the connection stays open for the next request; `false` when it must close (the
    ///   socket has then been shut down or reset as the response required).
    func respond(to parsed: HTTPRequest) -> Bool {
        let started = ContinuousClock.now
        var request = parsed
        let plan: FaultPlan?
        do {
            plan = try core.faults.plan(for: &request)
        } catch {
            let response = HTTPResponse.jsonError(.badRequest, error.message, code: "invalid_fault")
            return write(response, to: parsed, plan: nil, started: started)
        }
        if request.method == .head { request.method = .get }
        guard let response = awaitResponse(to: request, plan: plan) else { return false }
        request.method = parsed.method
        return write(response, to: request, plan: plan, started: started)
    }

    /// Runs the responders in a task and waits for the response; `nil` when a forced shutdown abandoned it.
    private func awaitResponse(to request: HTTPRequest, plan: FaultPlan?) -> HTTPResponse? {
        let handoff = makeHandoff(of: HTTPResponse.self)
        let core = self.core
        guard startWork(handoff, { handoff.push(await core.response(to: request, plan: plan)) }) != nil else {
            return nil
        }
        defer { core.registry.endWork(id) }
        return wait(for: handoff)
    }

    private func write(
        _ response: HTTPResponse, to request: HTTPRequest, plan: FaultPlan?, started: ContinuousClock.Instant
    )
        -> Bool
    {
        let isHead = request.method == .head
        let reset = plan?.reset ?? false
        let truncate = plan?.truncate ?? false
        var keepAlive =
            !reset && !truncate && request.keepAlive && !Connection.closes(response) && !core.registry.isDraining
        var sent = 0
        var isOpen = true

        switch response.body {
        case .bytes(let body):
            (isOpen, sent) = writeBytes(
                body, of: response, version: request.version, keepAlive: keepAlive, isHead: isHead, reset: reset,
                truncate: truncate)
        case .stream(let stream):
            if isHead {
                let head = HTTPResponseSerializer.head(
                    of: response, bodyLength: nil, version: request.version, keepAlive: keepAlive)
                isOpen = socket.send(head)
            } else if truncate {
                guard let body = collect(stream) else { return false }
                (isOpen, sent) = writeBytes(
                    body, of: response, version: request.version, keepAlive: false, isHead: false, reset: false,
                    truncate: true)
            } else {
                let framing = HTTPResponseSerializer.framing(of: response, bodyLength: nil, version: request.version)
                if framing == .untilClose { keepAlive = false }
                (isOpen, sent) = writeStream(
                    stream, of: response, version: request.version, framing: framing, keepAlive: keepAlive,
                    reset: reset)
            }
        }

        core.log(
            method: request.method.rawValue, target: request.target, status: response.status.code, bytes: sent,
            elapsed: ContinuousClock.now - started, faults: plan)
        if reset {
            socket.setResetOnClose()
            return false
        }
        guard isOpen else { return false }
        if keepAlive { return true }
        Connection.lingeringClose(socket)
        return false
    }

    /// Writes the head and body in one send; for a truncated response, announces the full length (at least one
    /// byte) and sends half; for a reset one, sends half and leaves the reset to the caller.
    private func writeBytes(
        _ body: [UInt8], of response: HTTPResponse, version: HTTPVersion, keepAlive: Bool, isHead: Bool,
        reset: Bool, truncate: Bool
    ) -> (isOpen: Bool, sent: Int) {
        var response = response
        var announced = body.count
        if truncate || reset {
            response.headers.remove("Content-Length")
            if truncate { announced = max(body.count, 1) }
        }
        let head = HTTPResponseSerializer.head(
            of: response, bodyLength: announced, version: version, keepAlive: keepAlive && !truncate && !reset)
        let framing = HTTPResponseSerializer.framing(of: response, bodyLength: announced, version: version)
        guard !isHead, case .contentLength = framing else { return (socket.send(head), 0) }
        let count = truncate || reset ? body.count / 2 : body.count
        return (socket.send(head, body, count: count), count)
    }

    /// Writes a streamed body as it is produced: in chunks, or raw until the close for HTTP/1.0 (or the
    /// response's own `Content-Length`). A reset sends the head and the first chunk only.
    ///
    /// Backpressure: the task pulling from the stream waits while more than `maximumPendingStreamBytes` pulled
    /// bytes have not been taken by this thread, which takes the next chunk only when the previous one is in the
    /// socket (a blocking send), so a slow client holds at most that much plus two chunks in memory.
    private func writeStream(
        _ stream: AsyncStream<[UInt8]>, of response: HTTPResponse, version: HTTPVersion,
        framing: HTTPResponseSerializer.Framing, keepAlive: Bool, reset: Bool
    ) -> (isOpen: Bool, sent: Int) {
        let chunked = framing == .chunked
        let head = HTTPResponseSerializer.head(of: response, bodyLength: nil, version: version, keepAlive: keepAlive)
        guard socket.send(head) else { return (false, 0) }
        if framing == .none { return (true, 0) }
        let handoff = makeHandoff(
            of: [UInt8].self, capacity: core.configuration.maximumPendingStreamBytes, cost: { $0.count })
        let work = startWork(handoff) {
            for await chunk in stream { await handoff.send(chunk) }
            handoff.finish()
        }
        guard let task = work else { return (false, 0) }
        defer {
            core.registry.endWork(id)
            task.cancel()
        }
        var sent = 0
        while let chunk = wait(for: handoff) {
            if chunk.isEmpty { continue }
            guard socket.send(chunked ? HTTPResponseSerializer.chunk(chunk) : chunk) else { return (false, sent) }
            sent += chunk.count
            if reset { return (true, sent) }
        }
        if handoff.wasAbandoned { return (false, sent) }
        if chunked, !reset {
            guard socket.send(HTTPResponseSerializer.lastChunk) else { return (false, sent) }
        }
        return (true, sent)
    }

    /// The whole of a streamed body; `nil` when a forced shutdown abandoned it.
    private func collect(_ stream: AsyncStream<[UInt8]>) -> [UInt8]? {
        let handoff = makeHandoff(of: [UInt8].self)
        let work = startWork(handoff) {
            var body: [UInt8] = []
            for await chunk in stream { body += chunk }
            handoff.push(body)
        }
        guard work != nil else { return nil }
        defer { core.registry.endWork(id) }
        return wait(for: handoff)
    }

    /// Whether the responder asked to close the connection.
    static func closes(_ response: HTTPResponse) -> Bool { ResponderChain.closes(response) }
}

extension ServerCore {
    /// The response to one request (see ``ResponderChain/response(to:plan:)``).
    func response(to request: HTTPRequest, plan: FaultPlan?) async -> HTTPResponse {
        await chain.response(to: request, plan: plan)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var view = self
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return view
    }

    /// ASCII case-insensitive equality.
    func caseInsensitiveEqual(_ other: String) -> Bool {
        utf8.count == other.utf8.count
            && zip(utf8, other.utf8).allSatisfy { a, b in
                a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
            }
    }
}
