#if os(Linux)
    import Glibc
    import Synchronization
    import TetherHTTP1
    import TetherServer
    import Testing

    @testable import TetherIO

    /// Collects what a channel reads until it closes.
    private final class Collector: ChannelHandler, @unchecked Sendable {
        var bytes: [UInt8] = []
        let done: (String, IOError?) -> Void

        init(done: @escaping (String, IOError?) -> Void) { self.done = done }

        func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) {
            self.bytes.append(contentsOf: bytes)
        }

        func channelInactive(_ channel: Channel, error: IOError?) {
            done(String(decoding: bytes, as: UTF8.self), error)
        }
    }

    private struct Hello: HTTPResponder {
        func respond(to request: HTTPRequest) async -> HTTPResponse? {
            HTTPResponse(headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
        }
    }

    /// Connects to `host:port` on the shared loop, sends a request with `Connection: close` and returns what came
    /// back, or the connect error.
    private func exchange(host: String, port: Int) async -> Result<String, IOError> {
        let loop = EventLoop.shared
        return await withCheckedContinuation { continuation in
            loop.execute {
                ClientBootstrap(eventLoop: loop).connect(host: host, port: port) { result, _ in
                    switch result {
                    case .failure(let error):
                        continuation.resume(returning: .failure(error))
                    case .success(let channel):
                        channel.handler = Collector { text, error in
                            continuation.resume(returning: error.map { .failure($0) } ?? .success(text))
                        }
                        channel.write(Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
                    }
                }
            }
        }
    }

    @Suite struct ClientBootstrapTests {
        @Test(arguments: ["127.0.0.1", "localhost"])
        func connectsAndExchangesBytes(host: String) async throws {
            let server = HTTPServer(
                configuration: .init(shutdownGracePeriod: .milliseconds(100)), responders: [Hello()])
            let port = try await server.start()
            let result = await exchange(host: host, port: port)
            await server.stop()
            let text = try result.get()
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.hasSuffix("\r\n\r\nhello"))
        }

        @Test func refusedConnectionIsAnError() async throws {
            // Bound but not listening: connections are refused.
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            let port = Int(UInt16(bigEndian: address.sin_port))
            guard case .failure(let error) = await exchange(host: "127.0.0.1", port: port) else {
                Issue.record("connected to a port that does not listen")
                return
            }
            #expect(error.code == .connectionFailed)
            #expect(error.errno == ECONNREFUSED)
        }

        @Test func unknownHostIsAnError() async {
            guard case .failure(let error) = await exchange(host: "no-such-host.invalid", port: 80) else {
                Issue.record("resolved a .invalid name")
                return
            }
            #expect(error.code == .unknownHost)
        }
    }
#endif
