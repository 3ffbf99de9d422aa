#if os(Linux)
    import Foundation
    import Glibc
    import TetherTestSupport
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

    /// The peer: answers one request (read to its blank line) with `hello` and closes, on a thread of its own.
    private func answerOnce(_ listener: LoopbackListener) {
        Thread.detachNewThread {
            guard let fd = listener.accept() else { return }
            defer { close(fd) }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.ends(with: Array("\r\n\r\n".utf8)) {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { return }
                received += buffer[0..<count]
            }
            let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8)
            _ = send(fd, response, response.count, Int32(MSG_NOSIGNAL))
        }
    }

    extension [UInt8] {
        fileprivate func ends(with suffix: [UInt8]) -> Bool {
            count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
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
            let listener = try LoopbackListener()
            defer { listener.close() }
            answerOnce(listener)
            let text = try await exchange(host: host, port: listener.port).get()
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.hasSuffix("\r\n\r\nhello"))
        }

        @Test func refusedConnectionIsAnError() async throws {
            // Bound but not listening: connections are refused.
            let port = try closedLoopbackPort()
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
