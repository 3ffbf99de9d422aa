#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux)
    import TetherIO
#endif

/// A TCP socket's file descriptor and the few blocking calls the server makes on it.
///
/// Not a resource owner: whoever holds the descriptor closes it (see ``ConnectionRegistry``). Sends never raise
/// `SIGPIPE` (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` on Apple platforms).
///
/// Platforms: built and tested on Linux (Glibc). The Apple branches (`#if canImport(Darwin)`) were reviewed
/// against the Darwin headers but are not compiled here: there `SOCK_STREAM` and the other constants are plain
/// `Int32`s (Glibc imports `SOCK_STREAM` as an enum), there is no `SOCK_CLOEXEC` or `MSG_NOSIGNAL` (close-on-exec
/// is set with `fcntl`, `SIGPIPE` is suppressed per socket with `SO_NOSIGPIPE`), `timeval.tv_usec` is an `Int32`,
/// `msghdr.msg_iovlen` an `Int32`, and accepted sockets inherit the listener's `O_NONBLOCK`.
struct Socket: Sendable {
    let fd: Int32
    #if os(Linux)
        /// The connection's TLS session on an HTTPS server: ``send(_:_:)`` and ``receive(into:)`` then carry plain
        /// bytes through it.
        var tls: TLSStream?
    #endif

    /// The outcome of one `recv`.
    enum ReceiveResult {
        case bytes(Int)
        case closed
        case timedOut
        case failed
    }

    #if canImport(Darwin)
        private static let streamType = SOCK_STREAM
        private static let sendFlags: Int32 = 0
    #else
        private static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    /// Binds and listens on `host:port` (numeric IPv4 or IPv6, or a name), returning the socket and the bound port.
    static func listen(host: String, port: Int, backlog: Int32) throws(ServerError) -> (Socket, Int) {
        guard (0...65535).contains(port) else { throw ServerError(.invalidPort, "port \(port) is not in 0...65535") }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw ServerError(.invalidHost, "cannot resolve host \"\(host)\": \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let info = first.pointee
        let fd = socket(info.ai_family, streamType, 0)
        guard fd >= 0 else { throw systemFailure(.socketFailed, "socket") }
        #if canImport(Darwin)
            // No SOCK_CLOEXEC there: set close-on-exec afterwards, as accept() does.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if info.ai_family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0 else {
            let code = errno
            _ = systemClose(fd)
            let kind: ServerError.Code = code == EADDRINUSE ? .addressInUse : .bindFailed
            throw ServerError(
                kind, "cannot bind \(host):\(port): \(String(cString: strerror(code)))", systemError: code)
        }
        guard systemListen(fd, backlog) == 0 else {
            let error = systemFailure(.socketFailed, "listen")
            _ = systemClose(fd)
            throw error
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = systemFailure(.socketFailed, "getsockname")
            _ = systemClose(fd)
            throw error
        }
        let boundPort: UInt16 =
            if Int32(storage.ss_family) == AF_INET6 {
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                }
            } else {
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
                }
            }
        return (Socket(fd: fd), Int(UInt16(bigEndian: boundPort)))
    }

    private static func systemFailure(_ code: ServerError.Code, _ call: String) -> ServerError {
        let number = errno
        return ServerError(code, "\(call) failed: \(String(cString: strerror(number)))", systemError: number)
    }

    /// Accepts one connection, or `nil` when none is pending or the call failed (`EMFILE`, `ECONNABORTED`).
    func accept() -> Socket? {
        let client = systemAccept(fd)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return Socket(fd: client)
    }

    /// Sets the options of an accepted connection: no Nagle delay, no `SIGPIPE`, and a bound on blocking sends.
    func configureAccepted(sendTimeout: Duration) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            // Sockets accepted from the non-blocking listener inherit O_NONBLOCK here (not on Linux).
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        #endif
        var time = Socket.makeTimeval(sendTimeout)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Makes a blocking `recv` give up after `timeout` (at least a millisecond).
    func setReceiveTimeout(_ timeout: Duration) {
        var time = Socket.makeTimeval(max(timeout, .milliseconds(1)))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func makeTimeval(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        #if canImport(Darwin)
            return Darwin.timeval(tv_sec: Int(seconds), tv_usec: Int32(attoseconds / 1_000_000_000_000))
        #else
            return timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        #endif
    }

    /// One blocking `recv` into `buffer`, retried on `EINTR` (with TLS: decrypted bytes, after as many receives as
    /// a record needs).
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> ReceiveResult {
        #if os(Linux)
            if let tls { return tls.receive(into: buffer, over: self) }
        #endif
        return receiveRaw(into: buffer)
    }

    /// One blocking `recv` of the socket's own bytes.
    func receiveRaw(into buffer: UnsafeMutableRawBufferPointer) -> ReceiveResult {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .timedOut
            default: return .failed
            }
        }
    }

    /// Sends all of `first` then all of `second` (with one `sendmsg` when the socket takes them); `false` when the
    /// peer is gone or the send timed out.
    func send(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    )
        -> Bool
    {
        #if os(Linux)
            if let tls { return tls.send(first, second, over: self) }
        #endif
        return sendRaw(first, second)
    }

    /// ``send(_:_:)`` of the socket's own bytes (TLS records on an HTTPS connection).
    func sendRaw(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        let total = first.count + second.count
        while offset < total {
            var vectors = (iovec(), iovec())
            var vectorCount = 0
            if offset < first.count {
                vectors.0 = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress! + offset),
                    iov_len: first.count - offset)
                vectorCount = 1
                if second.count > 0 {
                    vectors.1 = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress!), iov_len: second.count)
                    vectorCount = 2
                }
            } else {
                let start = offset - first.count
                vectors.0 = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress! + start),
                    iov_len: second.count - start)
                vectorCount = 1
            }
            let sent = withUnsafeMutablePointer(to: &vectors) { pointer in
                pointer.withMemoryRebound(to: iovec.self, capacity: 2) { iov in
                    var message = msghdr()
                    message.msg_iov = iov
                    message.msg_iovlen = numericCast(vectorCount)
                    return sendmsg(fd, &message, Socket.sendFlags)
                }
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Sends `first` and `second`, byte arrays.
    func send(_ first: [UInt8], _ second: [UInt8] = []) -> Bool {
        first.withUnsafeBytes { a in second.withUnsafeBytes { b in send(a, b) } }
    }

    /// Sends `first` and the first `count` bytes of `second`.
    func send(_ first: [UInt8], _ second: [UInt8], count: Int) -> Bool {
        first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in send(a, UnsafeRawBufferPointer(rebasing: b[0..<min(count, b.count)])) }
        }
    }

    enum ShutdownDirection {
        case read, write, both
    }

    /// Sends TLS's `close_notify` on an HTTPS connection; nothing otherwise. Connection thread only.
    func closeTLS() {
        #if os(Linux)
            tls?.close(over: self)
        #endif
    }

    /// Shuts down one or both directions; a blocked `recv` on the socket returns at once.
    func shutdown(_ direction: ShutdownDirection) {
        let how = direction == .read ? SHUT_RD : direction == .write ? SHUT_WR : SHUT_RDWR
        _ = socketShutdown(fd, Int32(how))
    }

    /// Makes the next `close` send a reset (`SO_LINGER` with a zero timeout) instead of a normal end.
    func setResetOnClose() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    func close() {
        _ = systemClose(fd)
    }
}

private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func socketShutdown(_ fd: Int32, _ how: Int32) -> Int32 { shutdown(fd, how) }
private func systemAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
