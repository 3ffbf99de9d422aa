#if os(Linux)
    import Foundation
    import Glibc
    import TetherSync

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

        let port: Int
        private let listener: Int32
        private let script: Script
        private let state = Locked<(connections: Int, requests: [String], stopped: Bool)>((0, [], false))

        init(_ script: @escaping Script) throws {
            struct Failed: Error {}
            self.script = script
            listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var one: Int32 = 1
            setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let listener = self.listener
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
                }
            }
            guard ok, listen(listener, 64) == 0 else {
                close(listener)
                throw Failed()
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            Thread.detachNewThread { [self] in acceptLoop() }
        }

        /// `http://127.0.0.1:<port><path>`.
        func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

        /// Connections accepted so far.
        var connections: Int { state.withLock { $0.connections } }
        /// The heads of the requests received, in order.
        var requests: [String] { state.withLock { $0.requests } }

        /// Stops accepting. The accept thread closes the listening socket when it sees the stop: closed here, its
        /// number could go to another test's listener before that thread's next `accept`, which would then take
        /// (and close) that test's connection.
        func stop() {
            state.withLock { $0.stopped = true }
            shutdown(listener, Int32(SHUT_RDWR))
        }

        private func acceptLoop() {
            defer { close(listener) }
            while true {
                let fd = accept(listener, nil, nil)
                if fd < 0 { return }
                let number = state.withLock { state -> Int? in
                    if state.stopped { return nil }
                    state.connections += 1
                    return state.connections
                }
                guard let number else {
                    close(fd)
                    return
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
