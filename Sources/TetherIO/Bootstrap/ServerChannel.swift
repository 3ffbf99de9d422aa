#if os(Linux)
    import CEpoll
    import Glibc

    /// A listening TCP socket made by ``ServerBootstrap``: it accepts connections without blocking and hands each
    /// to a loop of its group as a ``Channel``.
    ///
    /// Thread safety: ``localPort`` and ``close(_:)`` may be used from any thread; accepting happens on
    /// ``eventLoop``. When the process runs out of descriptors (`EMFILE`, `ENFILE`) accepting pauses for 10 ms
    /// rather than spinning on a listener that stays readable; the pending connections wait in the listen queue.
    public final class ServerChannel: @unchecked Sendable, EventSource {
        /// The loop that accepts (the group's first).
        public let eventLoop: EventLoop
        /// The port bound (the one the system chose when `0` was asked for).
        public let localPort: Int
        /// Connections accepted so far; loop thread only.
        public private(set) var acceptedCount = 0

        private let fd: Int32
        private let group: EventLoopGroup
        private let childInitializer: @Sendable (Channel) -> Void
        // Loop-confined.
        private var registration: UInt64?
        private var closed = false

        init(fd: Int32, group: EventLoopGroup, childInitializer: @escaping @Sendable (Channel) -> Void) {
            self.fd = fd
            self.group = group
            self.childInitializer = childInitializer
            eventLoop = group.loops[0]
            localPort = ServerChannel.boundPort(fd)
            eventLoop.execute { [self] in
                guard !closed else { return }
                registration = eventLoop.register(self, fd: fd, events: EPOLLIN.rawValue)
            }
        }

        /// Stops accepting and closes the listening socket; connections already accepted are not affected.
        /// `completion`, when given, runs on ``eventLoop`` once the socket is closed. Calling it again only runs
        /// the completion.
        public func close(_ completion: (@Sendable () -> Void)? = nil) {
            eventLoop.execute { [self] in
                if !closed {
                    closed = true
                    if let registration { eventLoop.deregister(registration, fd: fd) }
                    registration = nil
                    Glibc.close(fd)
                }
                completion?()
            }
        }

        func handle(events: UInt32) {
            // At most 256 per turn, so the loop's own connections are not starved by a burst of connects.
            for _ in 0..<256 {
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let client = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        tether_accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                    }
                }
                if client < 0 {
                    switch errno {
                    case EINTR, ECONNABORTED: continue
                    case EMFILE, ENFILE, ENOBUFS, ENOMEM: pauseAccepting()
                    default: break
                    }
                    return
                }
                acceptedCount += 1
                let address = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
                }
                let loop = group.next()
                let initializer = childInitializer
                if loop === eventLoop {
                    if let channel = Channel.accepted(fd: client, address: address, on: loop) { initializer(channel) }
                } else {
                    loop.execute {
                        if let channel = Channel.accepted(fd: client, address: address, on: loop) {
                            initializer(channel)
                        }
                    }
                }
            }
        }

        private func pauseAccepting() {
            guard let registration else { return }
            eventLoop.modify(registration, fd: fd, events: 0)
            eventLoop.schedule(in: .milliseconds(10)) { [self] in
                guard !closed, let registration = self.registration else { return }
                eventLoop.modify(registration, fd: fd, events: EPOLLIN.rawValue)
            }
        }

        private static func boundPort(_ fd: Int32) -> Int {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            let port: UInt16 =
                if Int32(storage.ss_family) == AF_INET6 {
                    withUnsafePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                    }
                } else {
                    withUnsafePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
                    }
                }
            return Int(UInt16(bigEndian: port))
        }
    }
#endif
