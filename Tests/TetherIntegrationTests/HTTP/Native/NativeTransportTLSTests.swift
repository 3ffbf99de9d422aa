#if os(Linux)
    import Foundation
    import Glibc
    import TetherHTTP
    import TetherIO
    import TetherJSON
    import TetherServer
    import TetherSync
    import Testing
    import TetherTestSupport

    /// ``NativeTransport`` over https: TetherServer serving HTTPS with certificates made by the `openssl` command,
    /// over real sockets on 127.0.0.1.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: TestCertificates.available, "needs the openssl command"))
    struct NativeTransportTLSTests {
        struct Post: Codable, Sendable {
            var id: Int?
            var title: String
        }

        /// Runs `body` with the URL of an HTTPS REST server (as `https://localhost:<port>`) presenting the
        /// identity `serving` picks.
        func withHTTPS<Value>(
            serving: KeyPath<TestCertificates, TestCertificates.Identity> = \.localhost, maximumConnections: Int = 512,
            _ body: (URL, TestCertificates) async throws -> Value
        ) async throws -> Value {
            let certificates = try await TestCertificates.shared()
            let identity = certificates[keyPath: serving]
            var configuration = HTTPServer.Configuration(
                maximumConnections: maximumConnections, shutdownGracePeriod: .milliseconds(200))
            configuration.tls = .init(certificateFile: identity.certificate, privateKeyFile: identity.key)
            let database = try JSONDatabase(
                BuiltInDataSet.make(imageBaseURL: "https://localhost"), mode: .inMemory)
            let server = HTTPServer(configuration: configuration, responders: [JSONServerResponder(database: database)])
            let port = try await server.start()
            do {
                let value = try await body(URL(string: "https://localhost:\(port)")!, certificates)
                await server.stop()
                return value
            } catch {
                await server.stop()
                throw error
            }
        }

        func transport(_ configure: (inout NativeTransport.Configuration) -> Void) -> NativeTransport {
            var configuration = NativeTransport.Configuration()
            configure(&configuration)
            return NativeTransport(configuration: configuration)
        }

        func client(_ baseURL: URL, _ transport: NativeTransport, retries: Bool = false) -> HTTPClient {
            HTTPClient(baseURL: baseURL) {
                $0.transport = transport
                if !retries { $0.retryPolicy = .never }
            }
        }

        /// The TLS error under an ``HTTPError``, if that is what `error` is.
        func ioError(_ error: HTTPError?) -> IOError? {
            guard case .transport(let underlying) = error?.kind else { return nil }
            return underlying as? IOError
        }

        func trusting(_ identity: TestCertificates.Identity) -> NativeTransport {
            transport { $0.tls.additionalTrustedCertificates = [URL(fileURLWithPath: identity.certificate)] }
        }

        @Test func getAndPostOverHTTPSReuseOneConnection() async throws {
            try await withHTTPS { baseURL, certificates in
                let transport = trusting(certificates.localhost)
                let client = client(baseURL, transport)
                let first = try await client.send(Request<Post>(path: "/posts/1"))
                let created = try await client.send(
                    Request<Post>(path: "/posts", method: .post, body: .json(Post(title: "over TLS"))))
                let second = try await client.send(Request<Post>(path: "/posts/2"))
                #expect(first.value.id == 1 && second.value.id == 2)
                #expect(created.status.code == 201 && created.value.title == "over TLS")
                let metrics = try #require(first.metrics.transfer)
                #expect(!metrics.reusedConnection && metrics.tls != nil && metrics.connect != nil)
                #expect(created.metrics.transfer?.reusedConnection == true)
                #expect(created.metrics.transfer?.tls == nil)
                #expect(second.metrics.transfer?.reusedConnection == true)
                let port = try #require(baseURL.port)
                #expect(await transport.openConnections() == ["https://localhost:\(port)": 1])
            }
        }

        @Test func addressURLIsCheckedAgainstTheCertificateAddresses() async throws {
            try await withHTTPS { baseURL, certificates in
                let url = URL(string: "https://127.0.0.1:\(baseURL.port!)")!
                let response = try await client(url, trusting(certificates.localhost)).send(
                    Request<Post>(path: "/posts/3"))
                #expect(response.value.id == 3)
            }
        }

        @Test func unknownIssuerFailsOnceWithAClearError() async throws {
            try await withHTTPS { baseURL, _ in
                let client = client(baseURL, transport { _ in }, retries: true)
                let error = await #expect(throws: HTTPError.self) {
                    try await client.send(Request<Data>(path: "/posts/1"))
                }
                #expect(ioError(error)?.code == .certificateUntrusted)
                #expect(error?.attempts == 1)
                #expect(error?.message == "The server's certificate was not accepted.")
                #expect(error?.description.hasSuffix("transport error: IOError certificateUntrusted") == true)
            }
        }

        @Test func certificateForAnotherNameIsAHostMismatch() async throws {
            try await withHTTPS(serving: \.otherHost) { baseURL, certificates in
                let client = client(baseURL, trusting(certificates.otherHost))
                let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Data>(path: "/")) }
                #expect(ioError(error)?.code == .certificateHostMismatch)
            }
        }

        @Test func expiredCertificateIsExpired() async throws {
            try await withHTTPS(serving: \.expired) { baseURL, certificates in
                let client = client(baseURL, trusting(certificates.expired))
                let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Data>(path: "/")) }
                #expect(ioError(error)?.code == .certificateExpired)
            }
        }

        @Test func pinnedKeyMatchesOrFails() async throws {
            try await withHTTPS { baseURL, certificates in
                let pinned = transport {
                    $0.tls.additionalTrustedCertificates = [URL(fileURLWithPath: certificates.localhost.certificate)]
                    $0.tls.pinnedPublicKeys = [certificates.localhost.pin]
                }
                let response = try await client(baseURL, pinned).send(Request<Post>(path: "/posts/1"))
                #expect(response.value.id == 1)
                let wrongPin = transport {
                    $0.tls.additionalTrustedCertificates = [URL(fileURLWithPath: certificates.localhost.certificate)]
                    $0.tls.pinnedPublicKeys = [certificates.otherHost.pin]
                }
                let error = await #expect(throws: HTTPError.self) {
                    try await client(baseURL, wrongPin).send(Request<Data>(path: "/posts/1"))
                }
                #expect(ioError(error)?.code == .certificatePinMismatch)
            }
        }

        @Test func insecureAcceptsAnUntrustedCertificateForAnotherName() async throws {
            try await withHTTPS(serving: \.otherHost) { baseURL, _ in
                let insecure = transport { $0.tls.allowsInsecure = true }
                let response = try await client(baseURL, insecure).send(Request<Post>(path: "/posts/1"))
                #expect(response.value.id == 1)
            }
        }

        @Test func plainHTTPServerFailsTheHandshake() async throws {
            try await withSocketREST { baseURL, _ in
                let url = URL(string: "https://127.0.0.1:\(baseURL.port!)")!
                let error = await #expect(throws: HTTPError.self) {
                    try await client(url, transport { $0.tls.allowsInsecure = true }).send(Request<Data>(path: "/"))
                }
                #expect(ioError(error)?.code == .tlsHandshakeFailed)
                #expect(error?.message == "A secure connection to the server could not be made.")
            }
        }

        @Test func serverThatClosesFailsTheHandshake() async throws {
            let listener = try LoopbackListener()
            defer { listener.close() }
            listener.acceptAndClose()
            let url = URL(string: "https://127.0.0.1:\(listener.port)")!
            let error = await #expect(throws: HTTPError.self) {
                try await client(url, transport { $0.tls.allowsInsecure = true }).send(Request<Data>(path: "/"))
            }
            #expect(ioError(error)?.code == .tlsHandshakeFailed)
        }

        @Test func silentServerHitsTheHandshakeTimeout() async throws {
            let listener = try LoopbackListener()  // Connections complete in the backlog, never accepted.
            defer { listener.close() }
            let url = URL(string: "https://127.0.0.1:\(listener.port)")!
            let quick = transport { $0.tlsHandshakeTimeout = .milliseconds(100) }
            let error = await #expect(throws: HTTPError.self) {
                try await client(url, quick).send(Request<Data>(path: "/"))
            }
            #expect(ioError(error)?.code == .tlsHandshakeTimeout)
        }

        @Test func requestDeadlineAndCancellationDuringTheHandshakeCloseTheConnection() async throws {
            let listener = try LoopbackListener()  // The handshake never gets an answer.
            defer { listener.close() }
            let url = URL(string: "https://127.0.0.1:\(listener.port)")!
            let transport = transport { $0.tlsHandshakeTimeout = .seconds(60) }
            let client = client(url, transport)
            var request = Request<Data>(path: "/")
            request.timeout = .milliseconds(150)
            let timedOut = await #expect(throws: HTTPError.self) { try await client.send(request) }
            if case .timeout = timedOut?.kind {} else { Issue.record("not a timeout: \(String(describing: timedOut))") }
            #expect(await eventually { await transport.openConnections().isEmpty })

            let task = Task { try await client.send(Request<Data>(path: "/")) }
            #expect(await eventually { await transport.openConnections().values.reduce(0, +) == 1 })
            task.cancel()
            let cancelled = await #expect(throws: HTTPError.self) { try await task.value }
            #expect(cancelled?.isCancellation == true)
            #expect(await eventually { await transport.openConnections().isEmpty })
        }

        @Test func largeBodiesCrossManyRecordsBothWays() async throws {
            try await withHTTPS { baseURL, certificates in
                let client = client(baseURL, trusting(certificates.localhost))
                let title = String(repeating: "0123456789abcdef", count: 40_000)  // 640 KB, 40 records and more.
                let created = try await client.send(
                    Request<Post>(path: "/posts", method: .post, body: .json(Post(title: title))))
                #expect(created.value.title == title)
                let id = try #require(created.value.id)
                let fetched = try await client.send(Request<Post>(path: "/posts/\(id)"))
                #expect(fetched.value.title == title)
                #expect(fetched.metrics.transfer?.reusedConnection == true)
                let list = try await client.send(Request<Data>(path: "/posts"))
                #expect(list.data.count > title.utf8.count)
            }
        }

        @Test func serverFaultsInsideTLSAreTransportErrors() async throws {
            try await withHTTPS { baseURL, certificates in
                let client = client(baseURL, trusting(certificates.localhost))
                for fault in ["reset", "truncate"] {
                    var request = Request<Data>(path: "/posts")
                    request.headers.set("X-Tether-Fault", fault)
                    let error = await #expect(throws: HTTPError.self) { try await client.send(request) }
                    guard case .transport = error?.kind else {
                        Issue.record("\(fault): not a transport error: \(String(describing: error))")
                        continue
                    }
                }
                var slow = Request<Post>(path: "/posts/2")
                slow.headers.set("X-Tether-Fault", "latency=20ms")
                let post = try await client.send(slow)  // The pool is still usable.
                #expect(post.value.id == 2)
            }
        }

        @Test func connectionOverTheServersLimitIsClosedDuringTheHandshake() async throws {
            try await withHTTPS(maximumConnections: 1) { baseURL, certificates in
                let first = client(baseURL, trusting(certificates.localhost))
                _ = try await first.send(Request<Data>(path: "/posts/1"))  // Its connection stays open, idle.
                let error = await #expect(throws: HTTPError.self) {
                    try await client(baseURL, trusting(certificates.localhost)).send(Request<Data>(path: "/posts/1"))
                }
                #expect(ioError(error)?.code == .tlsHandshakeFailed)
                withExtendedLifetime(first) {}
            }
        }

        @Test func unreadableTrustFileIsAConfigurationError() async throws {
            try await withHTTPS { baseURL, certificates in
                let broken = transport {
                    $0.tls.additionalTrustedCertificates = [certificates.directory.appendingPathComponent("none.pem")]
                }
                let error = await #expect(throws: HTTPError.self) {
                    try await client(baseURL, broken, retries: true).send(Request<Data>(path: "/"))
                }
                #expect(ioError(error)?.code == .tlsConfiguration)
                #expect(error?.attempts == 1)
            }
        }
    }

    extension LoopbackListener {
        /// Accepts one connection on another thread and closes it at once.
        func acceptAndClose() {
            Thread.detachNewThread { [self] in
                if let client = accept() { Glibc.close(client) }
            }
        }
    }
#endif
