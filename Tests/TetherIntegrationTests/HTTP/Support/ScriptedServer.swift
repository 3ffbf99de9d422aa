#if os(Linux)
    import Foundation
    import Glibc
    import TetherSync
    import TetherTestSupport

    /// A TCP server on 127.0.0.1 that answers each request with bytes the test scripts exactly: for responses no real
    /// server sends (1xx, trailers, odd framing, unknown codings) and for connections that die on cue.
    ///
    /// One thread per connection with blocking I/O. Each request (read up to its blank line and its `Content-Length`
    /// body) is answered by the script, called with the connection's number and the request's number on it (both
    /// from 1) and the request's head.
    final class ScriptedServer: Sendable {
        /// What to do with one request.
        enum Answer: Sendable {
            /// Send these bytes and keep reading requests.
            case send([UInt8])
            /// Send these bytes, then close the connection.
            case sendAndClose([UInt8])
            /// Close the connection without answering.
            case close
            /// Reset the connection (RST) without answering.
            case reset
        }

        typealias Script = @Sendable (_ connection: Int, _ request: Int, _ head: String) -> Answer

        var port: Int { listener.port }
        private let listener: LoopbackListener
        private let script: Script
        private let state = Locked<(connections: Int, requests: [String])>((0, []))

        init(_ script: @escaping Script) throws {
            self.script = script
            listener = try LoopbackListener()
            Thread.detachNewThread { [self] in acceptLoop() }
        }

        /// `http://127.0.0.1:<port><path>`.
        func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

        /// Connections accepted so far.
        var connections: Int { state.withLock { $0.connections } }
        /// The heads of the requests received, in order.
        var requests: [String] { state.withLock { $0.requests } }

        /// Stops accepting (connections already accepted go on).
        func stop() {
            listener.close()
        }

        private func acceptLoop() {
            while let fd = listener.accept() {
                let number = state.withLock { state -> Int in
                    state.connections += 1
                    return state.connections
                }
                Thread.detachNewThread { [self] in serve(fd, connection: number) }
            }
        }

        private func serve(_ fd: Int32, connection: Int) {
            var buffer: [UInt8] = []
            var requestNumber = 0
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                // One request: the head, then a Content-Length body.
                var headEnd: Int?
                while headEnd == nil {
                    if let range = Self.find(Array("\r\n\r\n".utf8), in: buffer) {
                        headEnd = range
                        break
                    }
                    let count = read(fd, &chunk, chunk.count)
                    if count <= 0 {
                        close(fd)
                        return
                    }
                    buffer += chunk[0..<count]
                }
                let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                while buffer.count < headEnd! + 4 + length {
                    let count = read(fd, &chunk, chunk.count)
                    if count <= 0 {
                        close(fd)
                        return
                    }
                    buffer += chunk[0..<count]
                }
                buffer.removeFirst(headEnd! + 4 + length)
                requestNumber += 1
                state.withLock { $0.requests.append(head) }
                switch script(connection, requestNumber, head) {
                case .send(let bytes):
                    Self.writeAll(fd, bytes)
                case .sendAndClose(let bytes):
                    Self.writeAll(fd, bytes)
                    close(fd)
                    return
                case .close:
                    close(fd)
                    return
                case .reset:
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                    close(fd)
                    return
                }
            }
        }

        private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes {
                    send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
                if count <= 0 { return }
                offset += count
            }
        }

        private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            for start in 0...(haystack.count - needle.count)
            where haystack[start..<(start + needle.count)].elementsEqual(needle) {
                return start
            }
            return nil
        }
    }

    extension ScriptedServer.Answer {
        /// A 200 response with `body` and `Content-Length`.
        static func ok(_ body: String, headers: String = "") -> Self {
            .send(Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)".utf8))
        }
    }
#endif
