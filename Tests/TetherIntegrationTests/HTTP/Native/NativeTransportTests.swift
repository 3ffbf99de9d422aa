#if os(Linux)
    import CZlib
    import Foundation
    import TetherSync
    import TetherHTTP
    import TetherHTTP1
    import TetherServer
    import TetherTestSupport
    import Testing

    /// ``NativeTransport`` over real sockets: TetherServer (with its fault injection) and a scripted server for
    /// responses no real server sends.
    @Suite(.timeLimit(.minutes(2))) struct NativeTransportTests {
        func client(
            _ baseURL: URL, _ transport: NativeTransport = NativeTransport(),
            configure: (inout HTTPClient.Configuration) -> Void = { _ in }
        ) -> HTTPClient {
            HTTPClient(baseURL: baseURL) {
                $0.transport = transport
                $0.retryPolicy = .never
                configure(&$0)
            }
        }

        struct Post: Decodable, Sendable {
            var id: Int
            var title: String
        }

        struct NewPost: Encodable, Sendable {
            var title: String
            var userId: Int
        }

        @Test func getsJSONAndReusesTheConnection() async throws {
            try await withSocketREST { baseURL, _ in
                let transport = NativeTransport()
                let client = client(baseURL, transport)
                let first = try await client.send(Request<Post>(path: "/posts/1"))
                let second = try await client.send(Request<Post>(path: "/posts/2"))
                #expect(first.value.id == 1)
                #expect(second.value.id == 2)
                let metrics = try #require(first.metrics.transfer)
                #expect(!metrics.reusedConnection)
                #expect(metrics.lookup != nil && metrics.connect != nil && metrics.firstByte != nil)
                #expect(metrics.bytesSent > 0 && metrics.bytesReceived > first.data.count)
                #expect(second.metrics.transfer?.reusedConnection == true)
                #expect(second.metrics.transfer?.lookup == nil)
                #expect(await transport.openConnections().values.reduce(0, +) == 1)
            }
        }

        @Test func sendsHostFirstAndAcceptEncoding() async throws {
            let server = try ScriptedServer { _, _, _ in .ok("{}") }
            defer { server.stop() }
            _ = try await client(server.url("/")).send(Request<Data>(path: "/a b?q=1%202"))
            let head = try #require(server.requests.first)
            let lines = head.split(separator: "\r\n")
            #expect(lines.first == "GET /a%20b?q=1%202 HTTP/1.1")
            #expect(lines.dropFirst().first == "Host: 127.0.0.1:\(server.port)")
            #expect(lines.contains("Accept-Encoding: gzip, deflate"))
        }

        @Test func postBodyAndStatusErrors() async throws {
            try await withSocketREST { baseURL, _ in
                let client = client(baseURL)
                let created = try await client.send(
                    Request<Post>(path: "/posts", method: .post, body: .json(NewPost(title: "new", userId: 1))))
                #expect(created.status.code == 201)
                #expect(created.value.title == "new")
                await #expect {
                    try await client.send(Request<Data>(path: "/posts/999999"))
                } throws: { error in
                    (error as? HTTPError)?.status?.code == 404
                }
            }
        }

        @Test func basicChallengeIsAnOrdinaryResponse() async throws {
            let response = HTTPResponse(
                status: .unauthorized, headers: ["WWW-Authenticate": "Basic realm=\"x\""], body: Array("no".utf8))
            _ = try await withSocketServer(answering: response) { server in
                await #expect {
                    try await client(server.baseURL).send(Request<Data>(path: "/secret"))
                } throws: { error in
                    (error as? HTTPError)?.status?.code == 401
                }
            }
        }

        @Test func chunkedBodyWithTrailersAndInterimResponses() async throws {
            let server = try ScriptedServer { _, _, _ in
                .send(
                    Array(
                        ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nAge: 1\r\nAge: 2\r\n\r\n"
                            + "5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nX-Checksum: 1\r\n\r\n").utf8))
            }
            defer { server.stop() }
            let response = try await client(server.url("/")).send(Request<String>(path: "/"))
            #expect(response.value == "hello world")
            #expect(response.headers.values(for: "Age") == ["1", "2"])
        }

        @Test func bodyUntilTheClose() async throws {
            let server = try ScriptedServer { _, _, _ in
                .sendAndClose(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end".utf8))
            }
            defer { server.stop() }
            let client = client(server.url("/"))
            #expect(try await client.send(Request<String>(path: "/")).value == "to the end")
            #expect(try await client.send(Request<String>(path: "/")).value == "to the end")
            #expect(server.connections == 2)
        }

        @Test func headAndNoContentHaveNoBody() async throws {
            let server = try ScriptedServer { _, number, _ in
                number == 1
                    ? .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".utf8))
                    : .send(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
            }
            defer { server.stop() }
            let client = client(server.url("/"))
            let head = try await client.send(Request<Data>(path: "/", method: .head))
            #expect(head.data.isEmpty)
            let noContent = try await client.send(Request<Data>(path: "/", method: .delete))
            #expect(noContent.status.code == 204)
            #expect(server.connections == 1)
        }

        @Test func gzipAndDeflateAreDecoded() async throws {
            let text = String(repeating: "compressible text ", count: 200)
            let server = try ScriptedServer { _, number, _ in
                let (coding, bits): (String, Int32) = number == 1 ? ("gzip", 31) : ("deflate", 15)
                let body = compress(Array(text.utf8), windowBits: bits)
                return .send(
                    Array(
                        "HTTP/1.1 200 OK\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                        + body)
            }
            defer { server.stop() }
            let client = client(server.url("/"))
            let gzip = try await client.send(Request<String>(path: "/"))
            #expect(gzip.value == text)
            #expect(gzip.headers["Content-Encoding"] == "gzip")
            #expect(try await client.send(Request<String>(path: "/")).value == text)
        }

        @Test func unknownCodingPassesThroughUndecoded() async throws {
            let server = try ScriptedServer { _, _, _ in
                .send(
                    Array(
                        "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 4\r\n\r\n\u{1}\u{2}\u{3}\u{4}".utf8)
                )
            }
            defer { server.stop() }
            let response = try await client(server.url("/")).send(Request<Data>(path: "/"))
            #expect(Array(response.data) == [1, 2, 3, 4])
            #expect(response.headers["Content-Encoding"] == "br")
        }

        @Test func corruptGzipIsATransportError() async throws {
            let server = try ScriptedServer { _, _, _ in
                .send(Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\nnope".utf8))
            }
            defer { server.stop() }
            await #expect {
                try await client(server.url("/")).send(Request<Data>(path: "/"))
            } throws: { error in
                if case .transport = (error as? HTTPError)?.kind { return true }
                return false
            }
        }

        @Test func deadReusedConnectionIsRetriedForIdempotentRequests() async throws {
            // The first connection answers once, then closes on the next request without a word.
            let server = try ScriptedServer { connection, request, _ in
                connection == 1 && request == 2 ? .close : .ok("fine")
            }
            defer { server.stop() }
            let client = client(server.url("/"))
            #expect(try await client.send(Request<String>(path: "/")).value == "fine")
            let retried = try await client.send(Request<String>(path: "/"))
            #expect(retried.value == "fine")
            #expect(retried.metrics.transfer?.reusedConnection == false)
            #expect(server.connections == 2)
        }

        @Test func deadReusedConnectionFailsAPostThatWasSent() async throws {
            let server = try ScriptedServer { connection, request, _ in
                connection == 1 && request == 2 ? .reset : .ok("fine")
            }
            defer { server.stop() }
            let client = client(server.url("/"))
            _ = try await client.send(Request<String>(path: "/", method: .post, body: .data(Data("a".utf8))))
            await #expect {
                try await client.send(Request<String>(path: "/", method: .post, body: .data(Data("b".utf8))))
            } throws: { error in
                if case .transport = (error as? HTTPError)?.kind { return true }
                return false
            }
            #expect(server.connections == 1)
        }

        @Test func serverFaultsAreTransportErrors() async throws {
            try await withSocketREST { baseURL, _ in
                let client = client(baseURL)
                for fault in ["reset", "truncate"] {
                    var request = Request<Data>(path: "/posts")
                    request.headers.set("X-Tether-Fault", fault)
                    await #expect {
                        try await client.send(request)
                    } throws: { error in
                        if case .transport = (error as? HTTPError)?.kind { return true }
                        return false
                    }
                }
                // The pool is still usable.
                let post = try await client.send(Request<Post>(path: "/posts/3"))
                #expect(post.value.id == 3)
            }
        }

        @Test func latencyFaultAndTheRequestDeadline() async throws {
            try await withSocketREST { baseURL, _ in
                var request = Request<Data>(path: "/posts/1")
                request.headers.set("X-Tether-Fault", "latency=2s")
                request.timeout = .milliseconds(150)
                await #expect {
                    try await client(baseURL).send(request)
                } throws: { error in
                    if case .timeout = (error as? HTTPError)?.kind { return true }
                    return false
                }
            }
        }

        @Test func firstByteTimeoutOfTheTransport() async throws {
            try await withSocketREST { baseURL, _ in
                var configuration = NativeTransport.Configuration()
                configuration.firstByteTimeout = .milliseconds(100)
                var request = Request<Data>(path: "/posts/1")
                request.headers.set("X-Tether-Fault", "latency=2s")
                await #expect {
                    try await client(baseURL, NativeTransport(configuration: configuration)).send(request)
                } throws: { error in
                    if case .timeout = (error as? HTTPError)?.kind { return true }
                    return false
                }
            }
        }

        @Test func cancellationClosesTheConnection() async throws {
            // The answer waits for the gate, which opens only after the check: however slow the machine, the
            // request is still in flight when it is cancelled (a timed wait here once let the answer arrive first,
            // leaving an idle connection open).
            let answer = Gate()
            let slow: Routes = { _, _ in
                await answer.wait()
                return HTTPResponse(body: [])
            }
            defer { answer.open() }
            try await withSocketServer(slow) { server in
                let transport = NativeTransport()
                let client = client(server.baseURL, transport)
                let task = Task { try await client.send(Request<Data>(path: "/slow")) }
                #expect(await server.log.wait(for: 1, on: "/slow"))
                #expect(await transport.openConnections().values.reduce(0, +) == 1)
                task.cancel()
                await #expect {
                    try await task.value
                } throws: { error in
                    (error as? HTTPError)?.isCancellation == true
                }
                #expect(await eventually { await transport.openConnections().isEmpty })
            }
        }

        @Test func cancellationWhileWaitingForAConnectionLeavesTheQueue() async throws {
            let release = Gate()
            let routes: Routes = { request, _ in
                if request.path == "/held" { await release.wait() }
                return HTTPResponse(body: Array("done".utf8))
            }
            try await withSocketServer(routes) { server in
                let transport = NativeTransport(maximumConnectionsPerHost: 1)
                let client = client(server.baseURL, transport)
                let held = Task { try await client.send(Request<String>(path: "/held")) }
                #expect(await server.log.wait(for: 1, on: "/held"))
                let queued = Task { try await client.send(Request<String>(path: "/queued")) }
                try await Task.sleep(for: .milliseconds(50))
                queued.cancel()
                await #expect {
                    try await queued.value
                } throws: { error in
                    (error as? HTTPError)?.isCancellation == true
                }
                release.open()
                #expect(try await held.value.value == "done")
                // The connection is free again, and the cancelled request was never sent.
                #expect(try await client.send(Request<String>(path: "/after")).value == "done")
                #expect(server.log.count("/queued") == 0)
                #expect(await transport.openConnections().values.reduce(0, +) == 1)
            }
        }

        @Test func idleConnectionsCloseAfterTheIdleTimeout() async throws {
            try await withSocketREST { baseURL, _ in
                var configuration = NativeTransport.Configuration()
                configuration.idleTimeout = .milliseconds(50)
                let transport = NativeTransport(configuration: configuration)
                _ = try await client(baseURL, transport).send(Request<Data>(path: "/posts/1"))
                #expect(await eventually(timeout: .seconds(10)) { await transport.openConnections().isEmpty })
            }
        }

        @Test func cancelledBeforeStartingSendsNothing() async throws {
            let server = try ScriptedServer { _, _, _ in .ok("x") }
            defer { server.stop() }
            let client = client(server.url("/"))
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(Request<Data>(path: "/"))
            }
            await #expect(throws: HTTPError.self) { try await task.value }
            #expect(server.requests.isEmpty)
        }

        @Test func poolKeepsToThePerHostLimit() async throws {
            let routes: Routes = { _, _ in
                try? await Task.sleep(for: .milliseconds(20))
                return HTTPResponse(body: Array("ok".utf8))
            }
            try await withSocketServer(routes) { server in
                let transport = NativeTransport(maximumConnectionsPerHost: 2)
                let client = client(server.baseURL, transport)
                let peak = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<12 {
                        group.addTask {
                            _ = try await client.send(Request<Data>(path: "/\(index)"))
                            return await transport.openConnections().values.reduce(0, +)
                        }
                    }
                    return try await group.reduce(0) { max($0, $1) }
                }
                #expect(peak <= 2)
                #expect(server.log.requests.count == 12)
            }
        }

        @Test func responseOverTheLimit() async throws {
            let server = try ScriptedServer { _, number, _ in
                number == 1
                    ? .ok(String(repeating: "x", count: 5000))
                    : .send(
                        Array(
                            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + String(repeating: "400\r\n" + String(repeating: "y", count: 1024) + "\r\n", count: 8)
                                + "0\r\n\r\n").utf8))
            }
            defer { server.stop() }
            let client = client(server.url("/")) { $0.maximumResponseSize = 4096 }
            for _ in 0..<2 {
                await #expect {
                    try await client.send(Request<Data>(path: "/"))
                } throws: { error in
                    if case .responseTooLarge = (error as? HTTPError)?.kind { return true }
                    return false
                }
            }
        }

        @Test func progressIsReported() async throws {
            let body = String(repeating: "p", count: 300_000)
            let server = try ScriptedServer { _, _, _ in .ok(body) }
            defer { server.stop() }
            let task = client(server.url("/")).task(for: Request<Data>(path: "/"))
            var last: TransferProgress?
            for await progress in task.progress { last = progress }
            let response = try await task.response
            #expect(response.data.count == 300_000)
            #expect(last?.bytesReceived == 300_000)
            #expect(last?.totalBytesExpected == 300_000)
        }

        @Test func malformedResponseIsATransportError() async throws {
            let server = try ScriptedServer { _, _, _ in .sendAndClose(Array("SPDY/3 nonsense\r\n\r\n".utf8)) }
            defer { server.stop() }
            await #expect {
                try await client(server.url("/")).send(Request<Data>(path: "/"))
            } throws: { error in
                if case .transport = (error as? HTTPError)?.kind { return true }
                return false
            }
        }

        @Test func refusedConnectionAndHTTPS() async throws {
            let port = try closedLoopbackPort()
            await #expect {
                try await client(URL(string: "http://127.0.0.1:\(port)")!).send(Request<Data>(path: "/"))
            } throws: { error in
                if case .transport = (error as? HTTPError)?.kind { return true }
                return false
            }
            await #expect {
                try await client(URL(string: "https://127.0.0.1:\(port)")!).send(Request<Data>(path: "/"))
            } throws: { error in
                if case .transport = (error as? HTTPError)?.kind { return true }
                return false
            }
            await #expect {
                try await client(URL(string: "ftp://127.0.0.1:\(port)")!).send(Request<Data>(path: "/"))
            } throws: { error in
                if case .invalidRequest = (error as? HTTPError)?.kind { return true }
                return false
            }
        }
    }

    /// A one-shot gate the routes of a test wait at until the test opens it.
    final class Gate: Sendable {
        private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resume = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resume { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// `bytes` compressed with zlib: gzip for `windowBits` 31, the zlib format for 15.
    func compress(_ bytes: [UInt8], windowBits: Int32) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { inputBytes in
            output.withUnsafeMutableBufferPointer { outputBytes in
                stream.next_in = inputBytes.baseAddress
                stream.avail_in = uInt(inputBytes.count)
                stream.next_out = outputBytes.baseAddress
                stream.avail_out = uInt(outputBytes.count)
                deflate(&stream, Z_FINISH)
                return outputBytes.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }
#endif
