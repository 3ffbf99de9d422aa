#if os(Linux)
    import CEpoll
    import Glibc

    /// Makes a listening ``ServerChannel`` whose accepted connections become ``Channel``s spread over a group's
    /// loops.
    ///
    /// ```swift
    /// import TetherIO
    ///
    /// final class Echo: ChannelHandler {
    ///     func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer) { channel.write(Array(bytes)) }
    ///     func channelInactive(_ channel: Channel, error: IOError?) {}
    /// }
    ///
    /// let server = try ServerBootstrap(group: .shared) { channel in channel.handler = Echo() }
    ///     .bind(host: "127.0.0.1", port: 0)
    /// print(server.localPort)
    /// ```
    ///
    /// Accepting is non-blocking, on the group's first loop; each accepted connection is handed to the group's next
    /// loop (``EventLoopGroup/next()``), where `childInitializer` is called with it before any of its bytes are
    /// read. The initializer runs on that loop: it must set the channel's handler and must not block.
    public struct ServerBootstrap: Sendable {
        public let group: EventLoopGroup
        /// The listen queue's length (`listen(2)`'s backlog).
        public var backlog: Int32 = 1024
        private let childInitializer: @Sendable (Channel) -> Void

        public init(group: EventLoopGroup, childInitializer: @escaping @Sendable (Channel) -> Void) {
            self.group = group
            self.childInitializer = childInitializer
        }

        /// Binds `host:port` (a numeric IPv4 or IPv6 address or a name; port `0` picks a free one), listens, and
        /// starts accepting. Any thread.
        ///
        /// - Throws: ``IOError``: ``IOError/Code/unknownHost`` when `host` does not resolve,
        ///   ``IOError/Code/addressInUse``, ``IOError/Code/bindFailed``, or ``IOError/Code/systemCall``.
        public func bind(host: String, port: Int) throws(IOError) -> ServerChannel {
            let fd = try ServerBootstrap.listeningSocket(host: host, port: port, backlog: backlog)
            return ServerChannel(fd: fd, group: group, childInitializer: childInitializer)
        }

        private static func listeningSocket(host: String, port: Int, backlog: Int32) throws(IOError) -> Int32 {
            var hints = addrinfo()
            hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                throw IOError(
                    .unknownHost, "Cannot resolve host \"\(host)\": \(String(cString: gai_strerror(status))).")
            }
            defer { freeaddrinfo(list) }
            let info = first.pointee
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(info.ai_family, type, 0)
            guard fd >= 0 else { throw failure(.systemCall, "socket") }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if info.ai_family == AF_INET6 {
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            guard Glibc.bind(fd, info.ai_addr, info.ai_addrlen) == 0 else {
                let code = errno
                Glibc.close(fd)
                throw IOError(
                    code == EADDRINUSE ? .addressInUse : .bindFailed, errno: code,
                    "Cannot bind \(host):\(port): \(Channel.describe(code)).")
            }
            guard listen(fd, backlog) == 0 else {
                let error = failure(.systemCall, "listen")
                Glibc.close(fd)
                throw error
            }
            return fd
        }

        static func failure(_ code: IOError.Code, _ call: String) -> IOError {
            let number = errno
            return IOError(code, errno: number, "\(call)() failed: \(Channel.describe(number)).")
        }
    }
#endif
