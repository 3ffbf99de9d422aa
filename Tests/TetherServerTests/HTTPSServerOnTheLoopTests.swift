#if os(Linux)
    import Glibc
    import TetherHTTP1
    import TetherServer
    import TetherTestSupport
    import Testing

    @testable import TetherIO

    /// Collects a TLS channel's bytes until the server closes it.
    private final class UntilClosed: ChannelHandler, @unchecked Sendable {
        var bytes: [UInt8] = []
        let done: (Result<String, IOError>) -> Void
        init(done: @escaping (Result<String, IOError>) -> Void) { self.done = done }
        func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) { self.bytes.append(contentsOf: bytes) }
        func channelInactive(_ channel: Channel, error: IOError?) {
            done(error.map { .failure($0) } ?? .success(String(decoding: bytes, as: UTF8.self)))
        }
    }

    private struct Hello: HTTPResponder {
        func respond(to request: HTTPRequest) async -> HTTPResponse? {
            HTTPResponse(headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
        }
    }

    /// TetherServer's HTTPS on its event loops, driven by TetherIO's client channels with TLS.
    @Suite(.timeLimit(.minutes(1)), .enabled(if: TestCertificates.available, "needs the openssl command"))
    struct HTTPSServerOnTheLoopTests {
        /// A server presenting the `localhost` certificate, with these settings.
        private func withHTTPS<Value>(
            maximumConnections: Int = 0, closesIdleConnectionsAtLimit: Bool = false,
            headerTimeout: Duration = .seconds(10),
            _ body: (Int, TLSContext) async throws -> Value
        ) async throws -> Value {
            let certificates = try await TestCertificates.shared()
            var configuration = HTTPServer.Configuration(shutdownGracePeriod: .milliseconds(200))
            configuration.tls = .init(
                certificateFile: certificates.localhost.certificate, privateKeyFile: certificates.localhost.key)
            configuration.maximumConnections = maximumConnections
            configuration.closesIdleConnectionsAtLimit = closesIdleConnectionsAtLimit
            configuration.headerTimeout = headerTimeout
            var trust = TLSClientConfiguration()
            trust.additionalTrustedCertificateFiles = [certificates.localhost.certificate]
            let client = try TLSContext(client: trust)
            let server = HTTPServer(configuration: configuration, responders: [Hello()])
            let port = try await server.start()
            do {
                let value = try await body(port, client)
                await server.stop()
                return value
            } catch {
                await server.stop()
                throw error
            }
        }

        /// Connects with TLS; `ready` gets the channel once the handshake is done, on the shared loop.
        private func connectTLS(
            port: Int, _ context: TLSContext, _ ready: @escaping @Sendable (Result<Channel, IOError>) -> Void
        ) {
            let loop = EventLoop.shared
            loop.execute {
                ClientBootstrap(eventLoop: loop).connect(host: "127.0.0.1", port: port) { result, _ in
                    switch result {
                    case .failure(let error): ready(.failure(error))
                    case .success(let channel):
                        guard let session = try? context.makeSession(serverName: "localhost") else {
                            channel.close()
                            ready(.failure(IOError(.tlsFailure, "no session")))
                            return
                        }
                        channel.startTLS(session, timeout: .seconds(5)) { error in
                            if let error { ready(.failure(error)) } else { ready(.success(channel)) }
                        }
                    }
                }
            }
        }

        /// One GET with `Connection: close` over a new TLS connection: the whole answer.
        private func exchange(port: Int, _ context: TLSContext) async -> Result<String, IOError> {
            await withCheckedContinuation { continuation in
                connectTLS(port: port, context) { result in
                    switch result {
                    case .failure(let error): continuation.resume(returning: .failure(error))
                    case .success(let channel):
                        channel.handler = UntilClosed { continuation.resume(returning: $0) }
                        channel.write(Array("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
                    }
                }
            }
        }

        @Test func concurrentHTTPSClientsAreAllServed() async throws {
            let answers = try await withHTTPS { port, context in
                await withTaskGroup(of: Result<String, IOError>.self) { group in
                    for _ in 0..<20 { group.addTask { await exchange(port: port, context) } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(answers.count == 20)
            for answer in answers {
                let text = try answer.get()
                #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.hasSuffix("\r\n\r\nhello"))
            }
        }

        @Test func idleHTTPSConnectionsMakeRoomAtTheLimit() async throws {
            let answers = try await withHTTPS(maximumConnections: 2, closesIdleConnectionsAtLimit: true) {
                port, context in
                // Two connections that finish their handshake and then say nothing fill the limit.
                var idle: [Channel] = []
                for _ in 0..<2 {
                    let channel = try await withCheckedContinuation { continuation in
                        connectTLS(port: port, context) { continuation.resume(returning: $0) }
                    }.get()
                    idle.append(channel)
                }
                var answers: [String] = []
                for _ in 0..<3 { answers.append(try await exchange(port: port, context).get()) }
                return answers
            }
            #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200 OK\r\n") })
        }

        @Test func aConnectionThatNeverStartsItsHandshakeIsClosedAtTheHeaderTimeout() async throws {
            let outcome = try await withHTTPS(headerTimeout: .milliseconds(300)) { port, _ in
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<String, IOError>, Never>) in
                    let loop = EventLoop.shared
                    loop.execute {
                        ClientBootstrap(eventLoop: loop).connect(host: "127.0.0.1", port: port) { result, _ in
                            switch result {
                            case .failure(let error): continuation.resume(returning: .failure(error))
                            case .success(let channel):
                                channel.handler = UntilClosed { continuation.resume(returning: $0) }
                            }
                        }
                    }
                }
            }
            // Closed by the server with nothing sent (a TCP end, or a reset), not left open.
            switch outcome {
            case .success(let text): #expect(text.isEmpty)
            case .failure(let error): #expect(error.code == .connectionReset, "\(error)")
            }
        }
    }
#endif
